"""Prints whether a task noted its import (imported_at file, see
relu_task_notes_import.py) at least a second before the device was free: the
tool started at the time in START_FILE and its record says how long it
waited for the device (FIELD: run or bench).

usage: imported_before.py IMPORTED_AT START_FILE RECORD FIELD"""
import json
import sys

imported_at, start_file, record, field = sys.argv[1:5]
imported = float(open(imported_at).readline())
start = float(open(start_file).read())
wait = json.loads(open(record).readline())[field]["seconds"]["device_wait"]
print("set up while waiting:", wait > 2 and imported < start + wait - 1)
