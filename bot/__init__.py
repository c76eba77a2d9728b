"""Omaha Dealer: a Discord bot that deals every Omaha variant and Texas Hold'em."""
