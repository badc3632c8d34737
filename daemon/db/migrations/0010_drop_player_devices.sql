-- game_player_devices (every fingerprint each player used, with first/last seen) cost every
-- ingestion batch two random B-tree writes per new player (its key and its by-player index) and
-- one per returning player, for a table nothing reads: the player's first-touch fingerprint is
-- on game_players, every event keeps its own in game_events (within raw retention), and the
-- fraud module keeps its own windows of players per device. Measured: ~17-22% of the pages a
-- 1,000-new-player batch writes (README, Performance).
DROP TABLE game_player_devices;
