# Runs Debian's `age` with a passphrase typed at its terminal prompts: age reads passphrases only
# from a terminal, so this gives it a pseudo-terminal (pty.fork) and answers each prompt.
# Usage: AGE_PASSPHRASE=… python3 age-tty.py age-args…   (stdin/stdout of age go to files via -o)
import os
import pty
import select
import sys

passphrase = os.environ["AGE_PASSPHRASE"].encode()
pid, fd = pty.fork()
if pid == 0:
    age = os.environ.get("AGE_PATH") or "age"
    os.execvp(age, [age, *sys.argv[1:]])
said = b""
answered = 0
while True:
    ready, _, _ = select.select([fd], [], [], 60)
    if not ready:
        break
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    said += chunk
    # Each prompt ends with ": " after the word "passphrase"; answer every new one.
    while said.lower().count(b"passphrase") > answered and said.rstrip().endswith(b":"):
        os.write(fd, passphrase + b"\n")
        answered += 1
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
if code != 0:
    sys.stderr.write(said.decode(errors="replace"))
sys.exit(code)
