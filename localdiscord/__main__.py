"""``python -m localdiscord``: the local Discord server, its web client and the bot, in one command."""

import sys

from localdiscord.play import main

sys.exit(main())
