# loadsgf (whole games, up to a move, handicap and setup stones, komi and rules from the
# file) and printsgf, to the answer and to a file that loads back the same game. Paths are
# relative to this file's folder; {scratch} is a private folder for written files.

# A whole game: ten moves, the last two passes, so black is to move.
1 loadsgf sgf/game-9x9.sgf
#? [black]
2 showboard
#? [.* 7 +(\. ){3}O (\. ){5} *7\n 6 +(\. ){5}X (\. ){3} *6\n 5 +(\. ){4}X \. X \. \. +5\n 4 +\. \. O \. \. X (\. ){3} *4\n 3 +\. \. O (\. ){6} *3\n.*Black captured 1, White captured 0; black to move; komi 6\.5.*]
3 get_komi
#? [6.5]
4 printsgf
#? [\(;FF\[4\]GM\[1\].*SZ\[9\]KM\[6\.5\].*RE\[W\+4\.5\].*;B\[ee\];W\[fe\];B\[fd\];W\[cg\];B\[ff\];W\[cf\];B\[ge\];W\[dc\];B\[\];W\[\]\s*\)]
# Every move of the game is undoable: the two passes, then white's D7.
5 undo
6 undo
7 showboard
#? [.* 7 +(\. ){3}O (\. ){5} *7\n.*black to move.*]
undo
undo
undo
undo
undo
undo
undo
undo
8 undo
#? [?cannot undo]

# Up to a move, not including it: before move 7, F5 is still on the board.
9 loadsgf sgf/game-9x9.sgf 7
#? [black]
10 showboard
#? [.* 5 +(\. ){4}X O \. \. \. +5\n.*Black captured 0.*]
11 loadsgf sgf/game-9x9.sgf 8
#? [white]
12 captures black
#? [1]
13 loadsgf sgf/game-9x9.sgf 1
#? [black]
14 undo
#? [?cannot undo]
# A number past the end loads the whole game.
15 loadsgf sgf/game-9x9.sgf 100
#? [black]
16 printsgf
#? [.*;W\[\]\s*\)]

# Handicap from HA and AB: white moves first, the handicap is no move.
20 loadsgf sgf/handicap-9x9.sgf
#? [white]
21 kata-get-rules
#? [\{.*"ko":"SIMPLE","scoring":"TERRITORY".*\}]
22 get_komi
#? [0.5]
23 printsgf
#? [.*KM\[0\.5\].*HA\[2\].*AB\[cg\]\[gc\].*;W\[ee\];B\[eg\]\s*\)]
24 loadsgf sgf/handicap-9x9.sgf 1
#? [white]
25 undo
#? [?cannot undo]

# Setup stones of both colours and PL: a 13x13 board with white to move, AGA rules.
30 loadsgf sgf/setup-white-to-move.sgf
#? [white]
31 showboard
#? [A B C D E F G H J K L M N\n13 .*10 +(\. ){3}X (\. ){5}O (\. ){3} *10.* 4 +(\. ){3}O (\. ){5}X (\. ){3} *4.*white to move; komi 3; rules aga]
32 undo
#? [?cannot undo]
33 printsgf
#? [.*SZ\[13\]KM\[3\]RU\[AGA\].*PL\[W\].*]

# Round trip through a file: print the game, clear everything, load it back.
loadsgf sgf/game-9x9.sgf
40 printsgf {scratch}/game.sgf
#? []
boardsize 13
komi 0
41 loadsgf {scratch}/game.sgf
#? [black]
42 get_komi
#? [6.5]
43 printsgf
#? [\(;FF\[4\]GM\[1\].*SZ\[9\]KM\[6\.5\].*;B\[ee\];W\[fe\];B\[fd\];W\[cg\];B\[ff\];W\[cf\];B\[ge\];W\[dc\];B\[\];W\[\]\s*\)]
44 captures black
#? [1]

# The same for handicap and for setup with white to move.
loadsgf sgf/handicap-9x9.sgf
45 printsgf {scratch}/handicap.sgf
clear_board
46 loadsgf {scratch}/handicap.sgf
#? [white]
47 printsgf
#? [.*HA\[2\].*AB\[cg\]\[gc\].*;W\[ee\];B\[eg\]\s*\)]
loadsgf sgf/setup-white-to-move.sgf
48 printsgf {scratch}/setup.sgf
clear_board
49 loadsgf {scratch}/setup.sgf
#? [white]
50 showboard
#? [.*10 +(\. ){3}X (\. ){5}O (\. ){3} *10.*white to move; komi 3; rules aga]

# A position made by GTP, printed and loaded back: stones, captures' board, side to move.
boardsize 9
clear_board
komi 5.5
kgs-rules japanese
set_free_handicap D4 F6
play w E5
play b pass
play w pass
60 printsgf {scratch}/made.sgf
boardsize 19
kgs-rules chinese
61 loadsgf {scratch}/made.sgf
#? [black]
62 get_komi
#? [5.5]
63 kata-get-rules
#? [\{.*"ko":"SIMPLE","scoring":"TERRITORY".*\}]
64 showboard
#? [A B C D E F G H J\n.* 6 +(\. ){5}X (\. ){3} *6\n 5 +(\. ){4}O (\. ){4} *5\n 4 +(\. ){3}X (\. ){5} *4\n.*black to move.*]
65 undo
66 undo
67 undo
68 undo
#? [?cannot undo]
69 showboard
#? [.*white to move.*]

# A set-up position with white to move (GoGui) keeps its side to move through a file.
clear_board
gogui-setup b C3 w G7
gogui-setup_player w
70 printsgf {scratch}/player.sgf
clear_board
71 loadsgf {scratch}/player.sgf
#? [white]

# A failed load leaves the game as it was.
loadsgf sgf/game-9x9.sgf 8
80 loadsgf sgf/broken.sgf
#? [?cannot load file]
81 loadsgf sgf/missing.sgf 3
#? [?cannot load file]
82 showboard
#? [.*Black captured 1, White captured 0; white to move; komi 6\.5.*]
