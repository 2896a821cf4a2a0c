"""The online hall (QQ-style): accounts, rooms, tables of four with bots, game coins on a
double-entry ledger, 托管, reconnects, spectators, chat, and a web client."""
