# Territory rules counted and finished as a referee would: a point the owner must still fill
# (the liberty of a chain in atari, which may be a ko; a false eye; a cutting point) counts
# for nobody, seki points count for nobody, and before passing the owner fills such points
# rather than a point of its territory. Each position is scored under both rules: area
# scoring counts the points to fill for their owner as before. Written for ishi; the
# positions are set up with gogui-setup, the diagrams show them (X black, O white).
# ishi-args: --rules japanese --playouts 1000

# The ko of issue 14: white's J6 is in atari and its only liberty J5 is white's. Black could
# take at J5; white must connect there before the count, so J5 is nobody's.
#   . . . . . . . . .
#   . . . . . . . . .
#   . . . . . . . . X
#   X X X X X X X X O
#   O O O O O O O O .
#   . . . . . . . . O
#   . . . . . . . . .
#   . . . . . . . . .
#   . . . . . . . . .
boardsize 9
clear_board
kgs-rules japanese
komi 6.5
gogui-setup b J7 b A6 b B6 b C6 b D6 b E6 b F6 b G6 b H6 w J6 w A5 w B5 w C5 w D5 w E5 w F5 w G5 w H5 w J4
1 final_status_list dead
#? []
# Territory: black 26 (rows 7-9 but J7), white 35 (rows 1-4 but J4; not J5) + 6.5.
2 final_score
#? [W\+15\.5]
gogui-setup_player w
# White connects at J5 rather than pass or play inside its territory.
3 reg_genmove w
#? [J5]
kgs-rules chinese
komi 7.5
# Area: black 35, white 46 (J5 included) + 7.5.
4 final_score
#? [W\+18\.5]

# A false eye: E9 is white's, but F9-G9 touches it from one side only; black E9 would capture
# the two stones, so white must fill E9 and nobody counts it.
#   . . . O . O O X .
#   . . . O O X X X .
#   . . . . O X . . .
#   O O O O O X X . .
#   X X X X X X . . .
#   . . . . . . . . .
#   . . . . . . . . .
#   . . . . . . . . .
#   . . . . . . . . .
boardsize 9
clear_board
kgs-rules japanese
komi 40.5
gogui-setup w D9 w F9 w G9 b H9 w D8 w E8 b F8 b G8 b H8 w E7 b F7 w A6 w B6 w C6 w D6 w E6 b F6 b G6 b A5 b B5 b C5 b D5 b E5 b F5
10 final_status_list dead
#? []
# Territory: black 46, white 10 (not E9) + 40.5.
11 final_score
#? [W\+4\.5]
gogui-setup_player w
12 reg_genmove w
#? [E9]
kgs-rules chinese
komi 41.5
# Area: black 59, white 22 (E9 included) + 41.5.
13 final_score
#? [W\+4\.5]

# A cutting point: white E5-E4 has two liberties, E6 and E3. Black E3 would put it in atari,
# so white must connect at E6 some time; E6 counts for nobody and E3 is dame.
#   . . . . . . . . .
#   . . . . . . . . .
#   O O O O O O O O O
#   X X X O . O X X X
#   . . X X O X X . .
#   . . . X O X . . .
#   . . . X . X . . .
#   . . . . X . . . .
#   . . . . . . . . .
boardsize 9
clear_board
kgs-rules japanese
komi 20.5
gogui-setup w A7 w B7 w C7 w D7 w E7 w F7 w G7 w H7 w J7 b A6 b B6 b C6 w D6 w F6 b G6 b H6 b J6 b C5 b D5 w E5 b F5 b G5 b D4 w E4 b F4 b D3 b F3 b E2
20 final_status_list dead
#? []
# Territory: black 33, white 18 (rows 8-9, not E6) + 20.5.
21 final_score
#? [W\+5\.5]
gogui-setup_player w
22 reg_genmove w
#? [E6]
gogui-setup_player b
# Black fills the dame, with atari.
23 reg_genmove b
#? [E3]
kgs-rules chinese
komi 21.5
# Area: black 48, white 32 (E6 included) + 21.5.
24 final_score
#? [W\+5\.5]

# Seki without eyes: black D9-D8-D7-E7 and white F9-F8-F7 share the liberties E9 and E8
# only; whoever fills one is captured.
#   . . O X . O X . .
#   . . O X . O X . .
#   . . O X X O X . .
#   O O O O O X X . .
#   . . . . O X . . .
#   . . . . O X . . .
#   . . . . O X . . .
#   . . . . O X . . .
#   . . . . O X . . .
boardsize 9
clear_board
kgs-rules japanese
komi 6.5
gogui-setup w C9 b D9 w F9 b G9 w C8 b D8 w F8 b G8 w C7 b D7 b E7 w F7 b G7 w A6 w B6 w C6 w D6 w E6 b F6 b G6 w E5 b F5 w E4 b F4 w E3 b F3 w E2 b F2 w E1 b F1
30 final_status_list seki
#? [D7 E7 D8 D9\nF7 F8 F9|F7 F8 F9\nD7 E7 D8 D9]
31 final_status_list dead
#? []
# Territory: black 23, white 26 + 6.5; E9 and E8 for nobody.
32 final_score
#? [W\+9\.5]
gogui-setup_player b
play b pass
# Nothing left to fill: the shared liberties are not safe, the rest is territory.
33 reg_genmove w
#? [pass]
kgs-rules chinese
komi 7.5
# Area: black 37, white 42 + 7.5.
34 final_score
#? [W\+12\.5]

# Seki with an eye each: black's eye D9, white's eye H9, the shared liberty F9.
#   . O X . X . O . O
#   . O X X X O O O O
#   O O O O O X X X X
#   . . . . O X . . .
#   . . . . O X . . .
#   . . . . O X . . .
#   . . . . O X . . .
#   . . . . O X . . .
#   . . . . O X . . .
boardsize 9
clear_board
kgs-rules japanese
komi 6.5
gogui-setup w B9 b C9 b E9 w G9 w J9 w B8 b C8 b D8 b E8 w F8 w G8 w H8 w J8 w A7 w B7 w C7 w D7 w E7 b F7 b G7 b H7 b J7 w E6 b F6 w E5 b F5 w E4 b F4 w E3 b F3 w E2 b F2 w E1 b F1
40 final_status_list seki
#? [C8 D8 E8 C9 E9\nF8 G8 H8 J8 G9 J9|F8 G8 H8 J8 G9 J9\nC8 D8 E8 C9 E9]
41 final_status_list dead
#? []
# Territory: black 18, white 26 + 6.5; the eyes D9 and H9 and F9 for nobody.
42 final_score
#? [W\+14\.5]
kgs-rules chinese
komi 7.5
# Area: black 34 (its eye included), white 46 (its eye included) + 7.5.
43 final_score
#? [W\+19\.5]
