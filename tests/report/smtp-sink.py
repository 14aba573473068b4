#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A local SMTP server for the sendmail test (python3-aiosmtpd).

smtp-sink.py DIR: listens on 127.0.0.1 at a free port, writes the port to
DIR/port once it accepts connections, and each message it receives to
DIR/N.eml (the data exactly as received) and DIR/N.rcpt (the envelope
recipients, one a line).  Runs until killed.
"""
import os
import signal
import socket
import sys

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        base = os.path.join(self.directory, str(self.count))
        with open(base + ".rcpt", "w") as f:
            f.write("".join(r + "\n" for r in envelope.rcpt_tos))
        with open(base + ".eml.tmp", "wb") as f:
            f.write(envelope.original_content)
        os.rename(base + ".eml.tmp", base + ".eml")
        return "250 OK"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    directory = sys.argv[1]
    port = free_port()
    controller = Controller(Sink(directory), hostname="127.0.0.1", port=port)
    controller.start()
    with open(os.path.join(directory, "port.tmp"), "w") as f:
        f.write(f"{port}\n")
    os.rename(os.path.join(directory, "port.tmp"),
              os.path.join(directory, "port"))
    signal.sigwait({signal.SIGTERM, signal.SIGINT})
    controller.stop()


if __name__ == "__main__":
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    main()
