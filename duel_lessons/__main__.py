"""``python -m duel_lessons``: the terminal game (see :mod:`duel_lessons.cli`)."""

from .cli import main

raise SystemExit(main())
