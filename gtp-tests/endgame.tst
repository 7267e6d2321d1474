# End of game: the status of every chain (dead, seki, alive) from ishi's end-of-game
# judgement, and final_score from it, under area and territory rules. Written for ishi; the
# positions are set up with gogui-setup, the diagrams show them (X black, O white).
# ishi-args: --rules chinese --playouts 1000

# A lone dead stone on each side: black owns the four left columns, white the rest.
#   . . . X O . . . .
#   . O . X O . . . .
#   . . . X O . . . .
#   . . . X O . . . .
#   . . . X O . . . .
#   . . . X O . . . .
#   . . . X O . X . .
#   . . . X O . . . .
#   . . . X O . . . .
boardsize 9
clear_board
komi 7.5
kgs-rules chinese
gogui-setup b D9 w E9 w B8 b D8 w E8 b D7 w E7 b D6 w E6 b D5 w E5 b D4 w E4 b D3 w E3 b G3 b D2 w E2 b D1 w E1
1 final_status_list dead
#? [B8\nG3|G3\nB8]
2 final_status_list seki
#? []
3 final_score
#? [W\+16\.5]
kgs-rules japanese
komi 6.5
4 final_score
#? [W\+15\.5]
5 final_status_list dead
#? [B8\nG3|G3\nB8]
kata-set-rules tromp-taylor
komi 7.5
# Tromp-Taylor counts every stone on the board: nothing is dead, the stones spoil territory.
6 final_status_list dead
#? []
7 final_score
#? [W\+7\.5]

# A one-eyed white group (eye at A9) in black's area is dead; so is the lone black H6.
#   . O . . X O . . .
#   O O . . X O . . .
#   O O . . X O . . .
#   O O . . X O . X .
#   X X . . X O . . .
#   . . . . X O . . .
#   . . . . X O . . .
#   . . . . X O . . .
#   . . . . X O . . .
boardsize 9
clear_board
komi 7.5
kgs-rules chinese
gogui-setup w B9 b E9 w F9 w A8 w B8 b E8 w F8 w A7 w B7 b E7 w F7 w A6 w B6 b E6 w F6 b H6 b A5 b B5 b E5 w F5 b E4 w F4 b E3 w F3 b E2 w F2 b E1 w F1
8 final_status_list dead
#? [A6 B6 A7 B7 A8 B8 B9\nH6]
9 final_score
#? [B\+1\.5]
kgs-rules japanese
komi 6.5
10 final_score
#? [B\+6\.5]
11 final_status_list alive
#? [E1 E2 E3 E4 E5 E6 E7 E8 E9\nF1 F2 F3 F4 F5 F6 F7 F8 F9\nA5 B5]

# Looks like a seki without eyes, but black kills: black B6 leaves both chains in atari on B7, white must capture five stones, and the bulky five it gets back dies to a move at its vital point. White is dead (GNU Go agrees).
#   X . O X . . .
#   X . O X . . .
#   X X O X . . .
#   O O O X . . .
#   X X X X . . .
#   . . . . . . .
#   . . . . . . .
boardsize 7
clear_board
komi 7.5
kgs-rules chinese
gogui-setup b A7 w C7 b D7 b A6 w C6 b D6 b A5 b B5 w C5 b D5 w A4 w B4 w C4 b D4 b A3 b B3 b C3 b D3
12 final_status_list seki
#? []
13 final_status_list dead
#? [A4 B4 C4 C5 C6 C7]
14 final_status_list alive
#? [A3 B3 C3 D3 D4 D5 D6 D7\nA5 B5 A6 A7]
15 final_score
#? [B\+41\.5]
kgs-rules japanese
komi 6.5
# Territory: 37 points (the dead stones' included) and 6 prisoners.
16 final_score
#? [B\+36\.5]

# Corner seki with one eye each (A7 black, E7 white) and one shared liberty C7: whoever fills C7 is captured (GNU Go agrees).
#   . X . O . O X
#   X X O O O O X
#   O O O X X X X
#   X X X X . . .
#   . . . . . . .
#   . . . . . . .
#   . . . . . . .
boardsize 7
clear_board
komi 7.5
kgs-rules chinese
gogui-setup b B7 w D7 w F7 b G7 b A6 b B6 w C6 w D6 w E6 w F6 b G6 w A5 w B5 w C5 b D5 b E5 b F5 b G5 b A4 b B4 b C4 b D4
17 final_status_list seki
#? [A6 B6 B7\nA5 B5 C5 C6 D6 E6 F6 D7 F7|A5 B5 C5 C6 D6 E6 F6 D7 F7\nA6 B6 B7]
18 final_status_list dead
#? []
# Area: the eyes count for their owners (black 38, white 10), C7 for nobody.
19 final_score
#? [B\+20\.5]
kgs-rules japanese
komi 6.5
# Territory: eyes of groups in seki are nobody's (black 24 points).
20 final_score
#? [B\+17\.5]

# Bent four in the corner: white's only liberties are A7 B7 A6 A5, so white is dead.
#   . . O X . . .
#   . O O X . . .
#   . O X X . . .
#   O O X . . . .
#   X X X . . . .
#   . . . . . . .
#   . . . . . . .
boardsize 7
clear_board
komi 7.5
kgs-rules chinese
gogui-setup w C7 b D7 w B6 w C6 b D6 w B5 b C5 b D5 w A4 w B4 b C4 b A3 b B3 b C3
21 final_status_list dead
#? [A4 B4 B5 B6 C6 C7]
22 final_score
#? [B\+41\.5]
kgs-rules japanese
komi 6.5
23 final_score
#? [B\+40\.5]

# A real eye at A7 and a false eye at A5 (B4 is black): both white chains are dead.
#   . O X . X O .
#   O O X . X O .
#   . O X . X O .
#   O X X . X O .
#   O X . . X O .
#   X X . . X O .
#   . . . . X O .
boardsize 7
clear_board
komi 7.5
kgs-rules chinese
gogui-setup w B7 b C7 b E7 w F7 w A6 w B6 b C6 b E6 w F6 w B5 b C5 b E5 w F5 w A4 b B4 b C4 b E4 w F4 w A3 b B3 b E3 w F3 b A2 b B2 b E2 w F2 b E1 w F1
24 final_status_list dead
#? [A3 A4\nB5 A6 B6 B7|B5 A6 B6 B7\nA3 A4]
25 final_score
#? [B\+13\.5]
kgs-rules japanese
komi 6.5
26 final_score
#? [B\+12\.5]

# Two real eyes (A7 and A5): the white group lives even inside black's side.
#   . O X . X O .
#   O O X . X O .
#   . O X . X O .
#   O O X . X O .
#   X X X . X O .
#   . . . . X O .
#   . . . . X O .
boardsize 7
clear_board
komi 7.5
kgs-rules chinese
gogui-setup w B7 b C7 b E7 w F7 w A6 w B6 b C6 b E6 w F6 w B5 b C5 b E5 w F5 w A4 w B4 b C4 b E4 w F4 b A3 b B3 b C3 b E3 w F3 b E2 w F2 b E1 w F1
27 final_status_list dead
#? []
28 final_score
#? [W\+2\.5]

# Cleanup (kgs-genmove_cleanup): black captures the dead B8 on the board before passing.
#   . . . X O . . . .
#   . O . X O . . . .
#   . . . X O . . . .
#   . . . X O . . . .
#   . . . X O . . . .
#   . . . X O . . . .
#   . . . X O . X . .
#   . . . X O . . . .
#   . . . X O . . . .
boardsize 9
clear_board
komi 7.5
kgs-rules chinese
gogui-setup b D9 w E9 w B8 b D8 w E8 b D7 w E7 b D6 w E6 b D5 w E5 b D4 w E4 b D3 w E3 b G3 b D2 w E2 b D1 w E1
komi 0.5
29 kgs-genmove_cleanup b
#? [A8|B9|C8|B7]
play w pass
30 kgs-genmove_cleanup b
#? [A8|B9|C8|B7]
play w pass
31 kgs-genmove_cleanup b
#? [A8|B9|C8|B7]
play w pass
32 kgs-genmove_cleanup b
#? [A8|B9|C8|B7]
33 captures b
#? [1]
play w pass
# Nothing of white's is left to capture: black passes.
34 kgs-genmove_cleanup b
#? [pass]
# White's turn: its cleanup starts at the dead G3.
35 kgs-genmove_cleanup w
#? [G2|G4|F3|H3]
36 known_command kgs-genmove_cleanup
#? [true]

# After white's pass, black wins by passing under Chinese rules (the dead B8 is removed) but under Tromp-Taylor must capture it first.
#   . . . X O . . . .
#   . O . X O . . . .
#   . . . X O . . . .
#   . . . X O . . . .
#   . . . X O . . . .
#   . . . X O . . . .
#   . . . X O . . . .
#   . . . X O . . . .
#   . . . X O . . . .
boardsize 9
clear_board
komi 7.5
kgs-rules chinese
gogui-setup b D9 w E9 w B8 b D8 w E8 b D7 w E7 b D6 w E6 b D5 w E5 b D4 w E4 b D3 w E3 b D2 w E2 b D1 w E1
komi -10.5
gogui-setup_player w
play w pass
37 final_score
#? [B\+1\.5]
38 reg_genmove b
#? [pass]
kata-set-rules tromp-taylor
komi -10.5
39 final_score
#? [W\+26\.5]
# Black must not pass while B8 stands. Approaching B8 now or filling its own area first
# (free under area scoring) win the same, so any move but the pass is right.
40 reg_genmove b
#? [!pass]

# A throw-in kill that looks like seki: black B3 sacrifices three stones, white must capture at A1, and the bent three left is a dead shape. White is dead, black A2 B2 live.
#   . . . . . . .
#   X X X X X X .
#   O X O O O X .
#   O O O O X X .
#   O . O X X . .
#   X X O O X . .
#   . O O X X . .
boardsize 7
clear_board
komi 7.5
kgs-rules chinese
gogui-setup b A6 b B6 b C6 b D6 b E6 b F6 w A5 b B5 w C5 w D5 w E5 b F5 w A4 w B4 w C4 w D4 b E4 b F4 w A3 w C3 b D3 b E3 b A2 b B2 w C2 w D2 b E2 w B1 w C1 b D1 b E1
41 final_status_list dead
#? [B1 C1 C2 D2 A3 C3 A4 B4 C4 D4 A5 C5 D5 E5]
42 final_status_list seki
#? []
43 final_score
#? [B\+41\.5]
kgs-rules japanese
komi 6.5
44 final_score
#? [B\+39\.5]

