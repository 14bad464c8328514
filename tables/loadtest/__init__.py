"""`manage.py loadtest`: bot players over real websockets, against a running server.

frames.py reads a table frame and picks the bot's move; signup.py signs a bot
up over HTTP; bots.py holds the game and echo bots; runner.py runs the
phases; stats.py counts. docs/performance.md has the figures.
"""
