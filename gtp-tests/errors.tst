# Every failure text of the GTP v2 specification, each where the specification puts it, and
# the engine still answering after each. Error expectations use ishi's `#? [?regex]`.

# unknown command
1 frobnicate
#? [?unknown command]
2 genmove_analyze b
#? [?unknown command]
3 kgs-chat game hello
#? [?unknown command]

# unacceptable size
10 boardsize 26
#? [?unacceptable size]
11 boardsize 1
#? [?unacceptable size]
12 boardsize 0
#? [?unacceptable size]
13 boardsize 19 13
#? [?unacceptable size]
14 boardsize 100
#? [?unacceptable size]

# illegal move: an occupied point, a point off the board, a one-stone suicide.
boardsize 9
clear_board
play b E5
20 play w E5
#? [?illegal move]
21 play b E5
#? [?illegal move]
22 play b K10
#? [?illegal move]
23 play w A10
#? [?illegal move]
play w A2
play w B1
24 play b A1
#? [?illegal move]
# After the failures the position is unchanged: black to move was set by the last good move.
25 showboard
#? [.*black to move.*]

# cannot undo: nothing played yet, and again once everything is taken back.
clear_board
30 undo
#? [?cannot undo]
play b C3
31 undo
32 undo
#? [?cannot undo]

# syntax error: missing, extra or malformed arguments.
40 play b
#? [?syntax error]
41 play x D4
#? [?syntax error]
42 play b D4 D5
#? [?syntax error]
43 play b I5
#? [?syntax error]
44 play b 5E
#? [?syntax error]
45 play b resign
#? [?syntax error]
46 genmove
#? [?syntax error]
47 genmove purple
#? [?syntax error]
48 komi seven
#? [?syntax error]
49 komi
#? [?syntax error]
50 boardsize nine
#? [?syntax error]
51 boardsize -9
#? [?syntax error]
52 boardsize
#? [?syntax error]
53 final_status_list undead
#? [?syntax error]
54 final_status_list
#? [?syntax error]
55 time_settings 300 30
#? [?syntax error]
56 time_left b ten 0
#? [?syntax error]
57 fixed_handicap many
#? [?syntax error]
58 is_legal b
#? [?syntax error]
59 gogui-setup b
#? [?syntax error]
60 gogui-play_sequence b C3 w
#? [?syntax error]
61 loadsgf
#? [?syntax error]
62 loadsgf sgf/game-9x9.sgf first
#? [?syntax error]
63 known_command
#? [?syntax error]
64 reg_genmove
#? [?syntax error]

# invalid number of stones
clear_board
70 fixed_handicap 1
#? [?invalid number of stones]
71 fixed_handicap 10
#? [?invalid number of stones]
72 fixed_handicap 0
#? [?invalid number of stones]
73 place_free_handicap 1
#? [?invalid number of stones]
74 place_free_handicap 81
#? [?invalid number of stones]
boardsize 7
75 fixed_handicap 2
#? [?invalid number of stones]
boardsize 8
76 fixed_handicap 5
#? [?invalid number of stones]

# board not empty: any stone or any move blocks handicap.
boardsize 9
clear_board
play b pass
80 fixed_handicap 2
#? [?board not empty]
clear_board
play b E5
81 place_free_handicap 2
#? [?board not empty]
82 set_free_handicap C3 G7
#? [?board not empty]
clear_board
fixed_handicap 2
83 fixed_handicap 2
#? [?board not empty]

# bad vertex list: fewer than two stones, repeats, pass, off the board, not vertices.
clear_board
90 set_free_handicap C3
#? [?bad vertex list]
91 set_free_handicap
#? [?bad vertex list]
92 set_free_handicap C3 C3
#? [?bad vertex list]
93 set_free_handicap C3 pass
#? [?bad vertex list]
94 set_free_handicap C3 K10
#? [?bad vertex list]
95 set_free_handicap C3 nonsense
#? [?bad vertex list]
# All failed: the board is still empty and black is to move.
96 showboard
#? [(\s|[A-J0-9.])*Black captured 0, White captured 0; black to move.*]

# cannot load file: missing, a folder, not SGF.
100 loadsgf sgf/no-such-file.sgf
#? [?cannot load file]
101 loadsgf sgf
#? [?cannot load file]
102 loadsgf sgf/broken.sgf
#? [?cannot load file]

# The engine is still fine.
110 protocol_version
#? [2]
