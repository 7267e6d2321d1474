# The computer opponent of a game app, Go (README "Embedding ishi in an app"): a level set at
# run time, hints at any level, the reason a move is illegal, free undo, the dead-stone
# proposal and the score.
# ishi-args: --size 5 --playouts 200

1 ishi-level
#? [hard]
ishi-level easy
2 ishi-level
#? [easy]
3 ishi-level grandmaster
#? [?unknown level.*]
4 play b C3
#? []
5 ishi-illegal_reason w C3
#? [occupied]
6 ishi-illegal_reason w Z9
#? [off_board]
7 ishi-illegal_reason w B2
#? []
8 ishi-hint w
#? [[A-E][1-5]]
9 ishi-hint w medium
#? [[A-E][1-5]]
10 ishi-level
#? [easy]
# The hints changed nothing: the same engine without them plays C4 here (deterministic mode).
11 genmove w
#? [C4]
12 undo
#? []
13 undo
#? []
14 ishi-illegal_reason b C3
#? []
15 play w A1
#? []
play b A2
play b B1
# Black's A2 and B1 captured A1; a white stone there now would have no liberty.
16 ishi-illegal_reason w A1
#? [suicide]
# A ko: black C3 takes white B3; white may not retake at once, nor after two passes, when the
# retake would repeat the whole board (positional superko under Chinese rules).
clear_board
play b B4
play b A3
play b B2
play w C4
play w B3
play w C2
play w D3
play b C3
19 ishi-illegal_reason w B3
#? [ko]
play w pass
play b pass
20 ishi-illegal_reason w B3
#? [superko]
21 play w B3
#? [?illegal move]
# The end: a black wall on the C line, a lone white stone in black's area. ishi proposes it
# as dead; an app shows the proposal and plays on if the player disagrees.
clear_board
play b C1
play b C2
play b C3
play b C4
play b C5
play w E5
17 final_status_list dead
#? [E5]
18 final_score
#? [B\+17\.5]
