#===-- wait_listening.py - wait for kevin-serve to listen ----------------===#
"""Usage: wait_listening.py LOG [SECONDS]

Polls LOG, the stderr of a `kevin-serve --port 0` started in the background,
until its `kevin-serve: listening on http://HOST:PORT` line appears, then
prints the URL. Gives up after SECONDS (default 120) with the log on stderr.
"""
import re
import sys
import time

LISTENING = re.compile(r"^kevin-serve: listening on (http://\S+)$", re.MULTILINE)


def main() -> int:
    log_path = sys.argv[1]
    deadline = time.monotonic() + float(sys.argv[2] if len(sys.argv) > 2 else 120)
    text = ""
    while time.monotonic() < deadline:
        try:
            with open(log_path, encoding="utf-8", errors="replace") as log:
                text = log.read()
        except FileNotFoundError:
            text = ""
        found = LISTENING.search(text)
        if found:
            print(found.group(1))
            return 0
        time.sleep(0.1)
    sys.stderr.write(f"wait_listening: no 'listening on' line in {log_path}:\n{text}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
