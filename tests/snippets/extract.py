#!/usr/bin/env python3
"""Turns the C++ and Python code blocks of README.md and docs/*.md into programs.

    extract.py --out DIR [--root DIR] [--cpp-parts N] FILE.md...

Writes DIR/snippets_<k>.cpp, the documents' C++ blocks in N translation units (default 2) that
compile in parallel (each block in a namespace of its own, a document's blocks in one unit, run
in document order; snippets_0.cpp's main runs every unit: one compile of the instantiations the
documents of a unit share) and DIR/python/test_snippets_<doc>.py per document with Python
blocks (one pytest test per block). A block is a program when it defines `int main(`; otherwise
it is a fragment and becomes the body of a function. The docs' fragments assume
`using namespace chaindyn;`, as a reader does.

An HTML comment on the line(s) right before a block's fence says more:
    <!-- snippet: skip REASON -->   not a program (an API synopsis, pseudocode); say why
    <!-- snippet: continue [NAME] -->  runs on in the scope of the previous block of the same
                                    language in the document, or of the block named NAME (its
                                    variables stay visible)
    <!-- snippet: name NAME -->     names the block for a later `continue NAME`
    <!-- snippet: with CODE -->     CODE (declarations the text assumes) runs before the block;
                                    a CODE that is an #include goes to the top of the file
    <!-- snippet: top -->           the fragment is written at namespace scope (it defines
                                    functions or types), not inside a function
    <!-- snippet: global -->        the fragment is written at global scope, before the others
                                    (explicit instantiations: chaindyn/instantiate.hpp's macros)
Several may follow each other. Each marker that a block cannot use is an error.
"""
import argparse
import os
import re
import sys

FENCE = re.compile(r"^```(\w*)\s*$")
MARKER = re.compile(r"^<!--\s*snippet:\s*(skip|continue|with|top|global|name)\b(.*?)-->\s*$")


class Block:
    def __init__(self, doc, line, lang, code, markers):
        self.doc, self.line, self.lang, self.code = doc, line, lang, code
        self.skip = next((arg for kind, arg in markers if kind == "skip"), None)
        self.cont = any(kind == "continue" for kind, _ in markers)
        self.cont_name = next((arg for kind, arg in markers if kind == "continue" and arg), None)
        self.name = next((arg for kind, arg in markers if kind == "name"), None)
        self.top = any(kind == "top" for kind, _ in markers)
        self.globl = any(kind == "global" for kind, _ in markers)
        self.with_code = [arg for kind, arg in markers if kind == "with"]


def blocks_of(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m or not m.group(1):
            if m:  # an unlabelled fence: skip to its end
                i += 1
                while i < len(lines) and not lines[i].startswith("```"):
                    i += 1
            i += 1
            continue
        lang, start = m.group(1), i
        i += 1
        body = []
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        markers, k = [], start - 1
        while k >= 0 and lines[k].strip() == "":
            k -= 1
        while k >= 0 and MARKER.match(lines[k].strip()):
            mm = MARKER.match(lines[k].strip())
            markers.insert(0, (mm.group(1), mm.group(2).strip()))
            k -= 1
        for kind, arg in markers:
            if kind == "skip" and not arg:
                sys.exit(f"{path}:{start + 1}: snippet: skip needs a reason")
        if lang in ("cpp", "python"):
            out.append(Block(path, start + 1, lang, body, markers))
        elif markers:
            sys.exit(f"{path}:{start + 1}: snippet marker on a ```{lang} block")
        i += 1
    return out


def ident(path):
    name = os.path.splitext(os.path.basename(path))[0]
    return re.sub(r"\W", "_", name).lower()


def cpp_units(doc, blocks, includes, global_code):
    """The units (namespaces) of one document's C++ blocks; its includes and global code added
    to the lists given."""
    units = []
    for b in blocks:
        if b.skip is not None:
            continue
        code = []
        with_code = []
        for ln in b.with_code:
            if ln.startswith("#include"):
                if ln not in includes:
                    includes.append(ln)
            else:
                with_code.append(ln)
        for ln in b.code:
            if ln.lstrip().startswith("#include"):
                if ln.strip() not in includes:
                    includes.append(ln.strip())
            else:
                code.append(ln)
        if b.globl:
            global_code += [f"// {b.doc}:{b.line}"] + with_code + code
            continue
        text = "\n".join(code)
        is_program = re.search(r"\bint\s+main\s*\(", text) is not None
        if b.cont:
            target = [u for u in units if u["name"] == b.cont_name] if b.cont_name else units[-1:]
            if not target or target[0]["program"]:
                sys.exit(f"{b.doc}:{b.line}: snippet: continue with no fragment to continue")
            target[0]["body"] += [f"// {b.doc}:{b.line}"] + with_code + code
            continue
        if is_program:
            # main may end without a return; the renamed function may not
            text = re.sub(r"\bint\s+main\s*\(", "int snippet_main(", text)
            end = text.rstrip().rfind("}")
            text = text[:end] + "  return 0;\n" + text[end:]
        units.append({"doc": doc, "line": b.line, "program": is_program or b.top,
                      "top": b.top, "name": b.name, "with": with_code,
                      "body": text.split("\n")})
    return units


def cpp_files(docs_blocks, parts):
    """The C++ blocks of every document as `parts` translation units that compile in parallel:
    each document's blocks (and its global blocks) in one part, the documents dealt in order to
    the part with the fewest blocks so far; in each part one namespace per unit and a function
    run_snippets_<k> that runs them in document order; the first part's main runs every part."""
    per_doc = []
    for doc, blocks in docs_blocks:
        includes, global_code = [], []
        units = cpp_units(doc, blocks, includes, global_code)
        if units or global_code:
            per_doc.append((doc, includes, global_code, units))
    if not per_doc:
        return None
    groups, sizes = [[] for _ in range(parts)], [0] * parts
    for d in per_doc:
        k = sizes.index(min(sizes))
        groups[k].append(d)
        sizes[k] += len(d[3]) + 1
    texts, total, n = [], 0, 0
    for k, group in enumerate(groups):
        includes = []
        for d in group:
            includes += [inc for inc in d[1] if inc not in includes]
        out = ["// Generated by tests/snippets/extract.py from the docs: do not edit.",
               "#include <chaindyn/chaindyn.hpp>"]
        out += includes
        out += ["#include <cmath>", "#include <cstdio>", "#include <exception>",
                "#include <iostream>", "#include <fstream>", "#include <iterator>",
                "#include <memory>", "#include <string>", "#include <vector>", ""]
        for d in group:
            out += d[2]
        out.append("")
        calls = []
        for d in group:
            for u in d[3]:
                doc = u["doc"]
                ns = f"snippet_{n}_{ident(doc)}_line_{u['line']}"
                n += 1
                out.append(f"namespace {ns} {{")
                out.append("using namespace chaindyn;")
                out.append(f"// {doc}:{u['line']}")
                if u["top"]:
                    out += u["with"] + u["body"]
                    out.append("int snippet_main() { return 0; }")
                elif u["program"]:
                    out += u["with"] + u["body"]
                else:
                    out.append("[[maybe_unused]] int snippet_main() {")
                    out += u["with"] + u["body"]
                    out += ["  return 0;", "}"]
                out.append(f"}}  // namespace {ns}")
                out.append("")
                calls.append((ns, f"{doc}:{u['line']}"))
        out.append(f"int run_snippets_{k}() {{")
        out.append("  int failed = 0;")
        for ns, where in calls:
            out.append("  try {")
            out.append(f"    if ({ns}::snippet_main() != 0) {{")
            out.append(f'      std::fprintf(stderr, "{where}: returned non-zero\\n");')
            out.append("      ++failed;")
            out.append("    }")
            out.append("  } catch (const std::exception& e) {")
            out.append(f'    std::fprintf(stderr, "{where}: threw: %s\\n", e.what());')
            out.append("    ++failed;")
            out.append("  }")
        out.append("  return failed;")
        out.append("}")
        total += len(calls)
        texts.append(out)
    first = texts[0]
    first += [f"int run_snippets_{k}();" for k in range(1, parts)]
    first.append("int main() {")
    first.append("  const int failed = " +
                 " + ".join(f"run_snippets_{k}()" for k in range(parts)) + ";")
    first.append(f'  std::printf("%d of {total} C++ snippets failed\\n", failed);')
    first.append("  return failed == 0 ? 0 : 1;")
    first.append("}")
    return ["\n".join(t) + "\n" for t in texts]


def python_file(doc, blocks):
    units = []
    for b in blocks:
        if b.skip is not None:
            continue
        code = b.with_code + b.code
        if b.cont:
            if not units:
                sys.exit(f"{b.doc}:{b.line}: snippet: continue with no block before it")
            units[-1]["code"] += [f"# {b.doc}:{b.line}"] + code
        else:
            units.append({"line": b.line, "code": code})
    if not units:
        return None
    out = [f"# Generated by tests/snippets/extract.py from {doc}: do not edit.", ""]
    for u in units:
        src = "\n".join(u["code"]) + "\n"
        out.append(f"def test_{ident(doc)}_line_{u['line']}():")
        out.append(f"    code = {src!r}")
        out.append(f"    exec(compile(code, {doc + ':' + str(u['line'])!r}, 'exec'), {{}})")
        out.append("")
    return "\n".join(out)


def write_if_changed(path, text):
    if os.path.exists(path) and open(path, encoding="utf-8").read() == text:
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--root", default=".", help="paths in messages relative to this directory")
    ap.add_argument("--cpp-parts", type=int, default=2,
                    help="the number of C++ translation units (snippets_<k>.cpp, k < N)")
    ap.add_argument("docs", nargs="+")
    args = ap.parse_args()
    if args.cpp_parts < 1:
        ap.error(f"--cpp-parts {args.cpp_parts}: expected a positive number")
    os.makedirs(args.out, exist_ok=True)
    cpp_docs, written = [], set()
    for path in args.docs:
        doc = os.path.relpath(path, args.root)
        blocks = blocks_of(path)
        cpp_docs.append((doc, [b for b in blocks if b.lang == "cpp"]))
        py = python_file(doc, [b for b in blocks if b.lang == "python"])
        name = ident(doc)
        if py:
            os.makedirs(os.path.join(args.out, "python"), exist_ok=True)
            write_if_changed(os.path.join(args.out, "python", f"test_snippets_{name}.py"), py)
            written.add(f"test_snippets_{name}.py")
    # files of blocks that are gone; the others are rewritten only when they change, so that an
    # unchanged document does not recompile the snippets
    if os.path.isdir(os.path.join(args.out, "python")):
        for old in os.listdir(os.path.join(args.out, "python")):
            if old.startswith("test_snippets_") and old not in written:
                os.remove(os.path.join(args.out, "python", old))
    cpp = cpp_files(cpp_docs, args.cpp_parts)
    for name in os.listdir(args.out):  # the parts of another --cpp-parts
        match = re.fullmatch(r"snippets_(\d+)\.cpp", name)
        if match and (not cpp or int(match.group(1)) >= args.cpp_parts):
            os.remove(os.path.join(args.out, name))
    for k, text in enumerate(cpp or []):
        write_if_changed(os.path.join(args.out, f"snippets_{k}.cpp"), text)


if __name__ == "__main__":
    main()
