# Run by Scripts/map-resolves inside gdb: runs each resolve of Sources/ResolvePaths/main.swift, and on its last run
# prints every ServiceHive function it enters, in order, with its file: "PATH <resolve>", then "STEP <symbol> <file>".
#
# It breaks on the entry of every function of the ServiceHive module rather than stepping line by line: a step goes
# over a function without line information, such as the standard library's, and so over the closures it calls back.
import os
import re
import subprocess

import gdb

gdb.execute("set pagination off")
gdb.execute("set confirm off")

binary = gdb.current_progspace().filename
program = os.environ["RESOLVE_PATHS_MAIN"]
runs = int(os.environ.get("RESOLVE_PATHS_RUNS", "4"))

# The resolves: each function `resolve…` of the program, entered on its last run.
resolves = {}
with open(program) as source:
    for number, line in enumerate(source, 1):
        found = re.search(r"@inline\(never\) func (resolve[A-Za-z]+)\(", line)
        if found:
            resolves[found.group(1)] = number
for line in resolves.values():
    gdb.Breakpoint(f"{program}:{line}").ignore_count = runs - 1

symbols = []
for line in subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout.splitlines():
    fields = line.split()
    if len(fields) == 3 and fields[1] in "tT":
        symbols.append(fields[2])
# Every function of the library, off until a resolve starts; and `keep`, which the program calls with what it resolved.
library = [gdb.Breakpoint(symbol, internal=True) for symbol in symbols if symbol.startswith("$s11ServiceHive")]
end = gdb.Breakpoint(next(s for s in symbols if re.match(r"\$s12ResolvePaths4keep", s)), internal=True)
for breakpoint in library + [end]:
    breakpoint.enabled = False

gdb.execute("run")
while True:
    try:
        frame = gdb.selected_frame()
    except gdb.error:
        break  # The program has ended.
    resolve = next((name for name in resolves if name in (frame.name() or "")), None)
    if resolve is None:
        break
    print(f"PATH {resolve}")
    for breakpoint in library + [end]:
        breakpoint.enabled = True
    while True:
        gdb.execute("continue", to_string=True)
        frame = gdb.selected_frame()
        if frame.name() and re.match(r"\$s12ResolvePaths4keep", frame.name()):
            break  # The resolve has returned.
        # The file of the line it stopped at, or, where a short function has no line there, of the function.
        symtab = frame.find_sal().symtab or (frame.function().symtab if frame.function() else None)
        print(f"STEP {frame.name()} {symtab.fullname() if symtab else '?'}")
    for breakpoint in library + [end]:
        breakpoint.enabled = False
    gdb.execute("continue", to_string=True)
