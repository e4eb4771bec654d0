"""``python -m duel_lessons``: the terminal game (see :mod:`duel_lessons.cli.main`)."""

from duel_lessons.cli.main import main

raise SystemExit(main())
