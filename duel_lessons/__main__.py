"""``python -m duel_lessons``: the terminal game (see :mod:`duel_lessons.cli.app`)."""

from duel_lessons.cli.app import main

raise SystemExit(main())
