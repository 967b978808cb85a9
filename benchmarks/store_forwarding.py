#!/usr/bin/env python3
"""Counts likely store-forwarding stalls in a compiled binary, per function.

A load of 16 or 32 bytes that covers two or more 8-byte stores made shortly before it (within
the last WINDOW instructions, same base register) cannot be forwarded from the store buffer on
current x86 cores: it waits until the stores have retired, ~10-20 cycles. g++ 12 produces this
when it builds an Eigen Vector3d from three scalars in memory and Eigen then reads its first two
entries as one packet (docs/benchmarks.md, "g++'s store-forwarding stalls on Eigen's 3-vector
packets"). The count is static (a site in a loop body counts once) and a heuristic (it follows
neither branches nor register changes), made to compare two builds of the same code, e.g. the
two sides of an A/B binary.

    benchmarks/store_forwarding.py BINARY [NAME_PREFIX] [--top N]

NAME_PREFIX keeps the functions whose demangled name starts with it (e.g. "void chaindyn::").
Prints "count  function" for the N functions with the most sites (default 25).
"""
import argparse
import collections
import re
import subprocess

WINDOW = 40
MEMORY = re.compile(r"(-?0x[0-9a-f]+|)\((%r[a-z0-9]+)\)$")
FUNCTION = re.compile(r"^[0-9a-f]+ <(.*)>:$")
PACKED_LOAD = re.compile(
    r"v?(movupd|movapd|movdqu|movdqa|addpd|subpd|mulpd|unpcklpd|fn?m(add|sub)\d+pd)$")


def offset(text):
    return int(text, 16) if text else 0


def scan(binary, prefix):
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-C", binary],
                             capture_output=True, text=True, check=True).stdout
    counts = collections.Counter()
    function, stores = None, []
    for line in listing.split("\n"):
        header = FUNCTION.match(line)
        if header:
            function, stores = header.group(1), []
            continue
        fields = line.split("\t")
        if function is None or len(fields) < 2:
            continue
        words = fields[-1].strip().split(None, 1)
        if len(words) < 2:
            continue
        op, operands = words[0], [x.strip() for x in words[1].split(",")]
        if op in ("vmovsd", "movsd", "vmovq", "movq") and len(operands) == 2:
            target = MEMORY.search(operands[1])
            if target and operands[0].startswith("%xmm"):
                stores = (stores + [(offset(target.group(1)), target.group(2))])[-WINDOW:]
                continue
        if PACKED_LOAD.match(op):
            width = 32 if "%ymm" in words[1] else 16
            # a move whose memory operand is the last (AT&T: the destination) is a store
            sources = operands[:-1] if "mov" in op else operands
            for operand in sources:
                source = MEMORY.search(operand)
                if source and not operand.startswith("%"):
                    start, base = offset(source.group(1)), source.group(2)
                    covered = sum(1 for o, b in stores if b == base and start <= o < start + width)
                    if covered >= 2 and function.startswith(prefix):
                        counts[function] += 1
                    break
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("prefix", nargs="?", default="")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    for function, count in scan(args.binary, args.prefix).most_common(args.top):
        print(f"{count:5d}  {function[:200]}")


if __name__ == "__main__":
    main()
