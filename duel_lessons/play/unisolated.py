"""The words of every refusal to run other people's code where nothing can isolate it (bot files in the class
tournament, handed-in notebooks in the class report), and of the flag that takes the risk.

A module of its own, without psutil, so that the class report and the command line (which import without it)
share the one constant with the sandbox.

>>> UNISOLATED_FLAG
'--run-untrusted-code-without-isolation'
"""

from __future__ import annotations

#: The flag that lets a command run other people's code where nothing can isolate it: its words name the risk.
UNISOLATED_FLAG = "--run-untrusted-code-without-isolation"
#: How to get isolation, said by every refusal.
INSTALL_ISOLATION = (
    "Install bubblewrap (Debian or Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) and allow "
    "user namespaces (sysctl kernel.unprivileged_userns_clone=1 where it exists, user.max_user_namespaces above 0)"
)
