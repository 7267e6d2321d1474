# GoGui's position commands: gogui-setup (stones before any move, not undoable),
# gogui-setup_player, gogui-play_sequence (all moves or none); and is_legal, which changes
# nothing.

boardsize 9
clear_board
1 gogui-setup b C3 w D4 B e5 white F6
2 showboard
#? [.* 6 +(\. ){5}O (\. ){3} *6\n 5 +(\. ){4}X (\. ){4} *5\n 4 +(\. ){3}O (\. ){5} *4\n 3 +\. \. X (\. ){6} *3\n.*black to move.*]
3 undo
#? [?cannot undo]
4 gogui-setup_player w
5 showboard
#? [.*white to move.*]
6 gogui-setup_player BLACK
7 showboard
#? [.*black to move.*]
8 gogui-setup_player purple
#? [?syntax error]
9 gogui-setup_player
#? [?syntax error]

# A bad entry anywhere in gogui-setup leaves the board as it was.
clear_board
10 gogui-setup b C3 w Z9
#? [?bad vertex list]
11 gogui-setup b C3 b pass
#? [?bad vertex list]
12 gogui-setup b C3 x D4
#? [?syntax error]
13 gogui-setup b C3 w
#? [?syntax error]
14 showboard
#? [(\s|[A-J0-9.])*Black captured 0, White captured 0; black to move.*]
# Setup is for the starting position only.
play b E5
15 gogui-setup w C3
#? [?board not empty]
16 showboard
#? [.* 5 +(\. ){4}X (\. ){4} *5\n(\s|[A-J0-9.])*Black.*]
# Setup stones capture nothing: a list leaving a chain without liberties is refused whole,
# rather than the engine silently losing stones the controller still shows.
clear_board
60 gogui-setup w A2 w B1 b A1
#? [?bad vertex list]
gogui-setup b A1 w A2
61 gogui-setup w B1
#? [?bad vertex list]
62 showboard
#? [.* 2 +O (\. ){8} *2\n 1 +X (\. ){8} *1\n.*]
# A stone set on a stone replaces it (GoGui's setup edits).
clear_board
gogui-setup b C3
17 gogui-setup w C3
18 showboard
#? [.* 3 +\. \. O (\. ){6} *3.*]

# gogui-play_sequence: ordinary moves, undoable one by one.
clear_board
20 gogui-play_sequence b E5 w D4 b pass w C3
21 showboard
#? [.* 5 +(\. ){4}X (\. ){4} *5\n 4 +(\. ){3}O (\. ){5} *4\n 3 +\. \. O (\. ){6} *3\n.*black to move.*]
22 undo
23 showboard
#? [.* 3 +(\. ){9} *3\n.*white to move.*]
# One illegal move anywhere and none is played.
clear_board
play b E5
24 gogui-play_sequence w D4 b D4 w C3
#? [?illegal move]
25 gogui-play_sequence w D4 b F6 w Z9
#? [?illegal move]
26 gogui-play_sequence w D4 b F6 w
#? [?syntax error]
27 gogui-play_sequence w D4 b I6
#? [?syntax error]
28 gogui-play_sequence w D4 purple F6
#? [?syntax error]
29 showboard
#? [.* 5 +(\. ){4}X (\. ){4} *5\n(\s|[A-J0-9.])*Black captured 0, White captured 0; white to move.*]
# A ko taken back at once, at the end of a long sequence, spoils the whole sequence.
clear_board
30 gogui-play_sequence b C5 w E6 b D6 w E4 b D4 w F5 b A9 w D5 b E5 w D5
#? [?illegal move]
31 showboard
#? [(\s|[A-J0-9.])*Black captured 0, White captured 0; black to move.*]
32 gogui-play_sequence b C5 w E6 b D6 w E4 b D4 w F5 b A9 w D5 b E5
33 captures black
#? [1]
34 is_legal w D5
#? [0]
35 gogui-play_sequence
36 captures black
#? [1]

# is_legal: 1 or 0, never an error for a well-formed move, and the position stays.
clear_board
play b E5
40 is_legal w E5
#? [0]
41 is_legal b E5
#? [0]
42 is_legal w pass
#? [1]
43 is_legal b PASS
#? [1]
44 is_legal w Z9
#? [0]
45 is_legal w a1
#? [1]
46 is_legal black E4
#? [1]
47 is_legal w resign
#? [?syntax error]
48 is_legal q A1
#? [?syntax error]
49 showboard
#? [.* 5 +(\. ){4}X (\. ){4} *5\n(\s|[A-J0-9.])*Black captured 0, White captured 0; white to move.*]
# Either colour may play at any time, twice in a row included.
play b D4
50 showboard
#? [.*white to move.*]
51 play b C3
52 showboard
#? [.*white to move.*]
