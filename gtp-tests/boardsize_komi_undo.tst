# Board sizes from 2 to 25 (GTP's letters end at Z; 1x1 has no game), komi that survives
# boardsize and clear_board, and undo all the way back to the start.

# Sizes at the limits.
1 boardsize 2
2 showboard
#? [A B\n 2 +\. \. +2\n 1 +\. \. +1\n +A B.*]
3 boardsize 25
4 showboard
#? [A B C D E F G H J K L M N O P Q R S T U V W X Y Z\n25 .*]
5 play b Z25
6 play w A1
7 is_legal b Z1
#? [1]
8 boardsize 1
#? [?unacceptable size]
9 boardsize 26
#? [?unacceptable size]
# A refused size leaves the board as it was, stones included.
10 showboard
#? [.*25 +(\. ){24}X +25.* 1 +O (\. ){24} *1.*]
# KataGo's two-number form, square boards only.
11 boardsize 13 13
12 showboard
#? [A B C D E F G H J K L M N\n13 .*]
13 boardsize 9 13
#? [?unacceptable size]
# boardsize clears the board.
boardsize 9
play b E5
14 boardsize 9
15 showboard
#? [(\s|[A-J0-9.])*Black captured.*]

# Komi: any number, kept through boardsize and clear_board (Fuego used to reset it).
20 komi 6.5
21 get_komi
#? [6.5]
boardsize 19
22 get_komi
#? [6.5]
clear_board
23 get_komi
#? [6.5]
24 komi 0
25 get_komi
#? [0]
26 komi -12.5
27 get_komi
#? [-12.5]
28 komi 7
boardsize 9
clear_board
29 get_komi
#? [7]
# Integer komi allows a draw, answered as 0.
boardsize 2
30 final_score
#? [W\+7]
play b A1
play w pass
play b B2
31 final_score
#? [W\+3]
komi 4
32 final_score
#? [0]
komi 3.5
33 final_score
#? [B\+0\.5]

# Undo: one move per call, passes included, all the way back, then no more.
boardsize 9
clear_board
komi 7.5
play b E5
play w pass
play b C3
play w D4
play b D5
play w D3
40 captures black
#? [0]
41 undo
42 showboard
#? [.* 3 +\. \. X (\. ){6} *3.*white to move.*]
43 undo
44 undo
45 undo
46 showboard
#? [.* 5 +(\. ){4}X (\. ){4} *5.*black to move.*]
47 undo
48 undo
49 showboard
#? [(\s|[A-J0-9.])*Black captured 0, White captured 0; black to move.*]
50 undo
#? [?cannot undo]
51 undo
#? [?cannot undo]
# Undo takes back a capture and gives the stone back.
play b E5
play w E4
play b D4
play w A9
play b F4
play w A8
play b E3
60 captures black
#? [1]
61 is_legal w E4
#? [0]
62 undo
63 captures black
#? [0]
64 showboard
#? [.* 4 +(\. ){3}X O X (\. ){3} *4\n 3 +(\. ){9} *3.*]
# Undo after genmove takes back the generated move.
clear_board
genmove b
65 undo
66 undo
#? [?cannot undo]
