# Handicap: fixed_handicap at the specification's points (3rd line below 13x13, 4th line from
# 13x13, up to 9 stones on odd boards and 4 on even ones, none below 8x8), place_free_handicap
# with exactly the stones asked for, set_free_handicap, white to move afterwards, and no undo.

# 19x19, every count, in the specification's order.
boardsize 19
1 fixed_handicap 2
#? [D4 Q16]
clear_board
2 fixed_handicap 3
#? [D4 Q16 D16]
clear_board
3 fixed_handicap 4
#? [D4 Q16 D16 Q4]
clear_board
4 fixed_handicap 5
#? [D4 Q16 D16 Q4 K10]
clear_board
5 fixed_handicap 6
#? [D4 Q16 D16 Q4 D10 Q10]
clear_board
6 fixed_handicap 7
#? [D4 Q16 D16 Q4 D10 Q10 K10]
clear_board
7 fixed_handicap 8
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16]
clear_board
8 fixed_handicap 9
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16 K10]
# The stones are on the board, white is to move, and handicap is no move to undo.
9 showboard
#? [.*16 +(\. ){3}X (\. ){5}X (\. ){5}X (\. ){3} *16.*white to move.*]
10 undo
#? [?cannot undo]
11 is_legal w K10
#? [0]
12 printsgf
#? [.*HA\[9\].*AB(\[[a-s]{2}\]){9}.*]

# 13x13: the 4th line.
boardsize 13
20 fixed_handicap 9
#? [D4 K10 D10 K4 D7 K7 G4 G10 G7]
clear_board
21 fixed_handicap 5
#? [D4 K10 D10 K4 G7]

# 25x25, the biggest board: the 4th line, columns up to W.
boardsize 25
25 fixed_handicap 9
#? [D4 W22 D22 W4 D13 W13 N4 N22 N13]

# 9x9 and 11x11: the 3rd line.
boardsize 9
22 fixed_handicap 9
#? [C3 G7 C7 G3 C5 G5 E3 E7 E5]
clear_board
23 fixed_handicap 2
#? [C3 G7]
boardsize 11
24 fixed_handicap 7
#? [C3 J9 C9 J3 C6 J6 F6]

# Even boards: corners only, at most 4.
boardsize 8
30 fixed_handicap 4
#? [C3 F6 C6 F3]
clear_board
31 fixed_handicap 5
#? [?invalid number of stones]
boardsize 10
32 fixed_handicap 3
#? [C3 H8 C8]
boardsize 12
33 fixed_handicap 4
#? [C3 K10 C10 K3]
boardsize 14
34 fixed_handicap 4
#? [D4 L11 D11 L4]
clear_board
35 fixed_handicap 6
#? [?invalid number of stones]
boardsize 18
36 fixed_handicap 2
#? [D4 P15]

# Too small for fixed handicap.
boardsize 7
40 fixed_handicap 2
#? [?invalid number of stones]
boardsize 5
41 fixed_handicap 4
#? [?invalid number of stones]

# Errors leave the board empty and black to move.
boardsize 19
42 fixed_handicap 10
#? [?invalid number of stones]
43 fixed_handicap 1
#? [?invalid number of stones]
44 showboard
#? [(\s|[A-T0-9.])*Black captured 0, White captured 0; black to move.*]

# place_free_handicap: exactly the number asked for (gtp2ogs resigns on fewer), all on the
# board and all different (the record lists each stone once), white to move.
boardsize 19
50 place_free_handicap 9
#? [([A-HJ-T]1?[0-9] ){8}[A-HJ-T]1?[0-9]]
51 printsgf
#? [.*HA\[9\]AB(\[[a-s]{2}\]){9}[^\[].*]
52 showboard
#? [.*white to move.*]
53 undo
#? [?cannot undo]
clear_board
54 place_free_handicap 20
#? [([A-HJ-T]1?[0-9] ){19}[A-HJ-T]1?[0-9]]
55 printsgf
#? [.*HA\[20\]AB(\[[a-s]{2}\]){20}[^\[].*]
boardsize 9
56 place_free_handicap 2
#? [[A-HJ][1-9] [A-HJ][1-9]]
clear_board
57 place_free_handicap 12
#? [([A-HJ][1-9] ){11}[A-HJ][1-9]]
58 printsgf
#? [.*AB(\[[a-i]{2}\]){12}[^\[].*]
boardsize 7
59 place_free_handicap 5
#? [([A-G][1-7] ){4}[A-G][1-7]]
boardsize 2
60 place_free_handicap 3
#? [[AB][12] [AB][12] [AB][12]]
61 printsgf
#? [.*AB(\[[ab]{2}\]){3}[^\[].*]
clear_board
62 place_free_handicap 4
#? [?invalid number of stones]
63 place_free_handicap 0
#? [?invalid number of stones]

# set_free_handicap: the controller's points, either case.
boardsize 9
komi 7.5
64 set_free_handicap c3 G7
65 showboard
#? [.* 7 +(\. ){6}X \. \. +7.* 3 +\. \. X (\. ){6} *3.*white to move.*]
66 printsgf
#? [.*HA\[2\]AB\[cg\]\[gc\].*]
# Area rules give white one point per handicap stone (Chinese).
67 final_score
#? [B\+71\.5]
68 undo
#? [?cannot undo]
69 set_free_handicap A1 B1
#? [?board not empty]
clear_board
70 set_free_handicap A1 B1 C1 D1 E1 F1 G1 H1 J1 A2 B2 C2 D2 E2 F2 G2 H2 J2
71 captures black
#? [0]
clear_board
play w E5
72 set_free_handicap A1 B1
#? [?board not empty]
