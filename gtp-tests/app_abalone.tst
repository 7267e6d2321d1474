# The computer opponent of a game app, Abalone (README "Embedding ishi in an app").
# ishi-args: --game abalone --playouts 100 --param abalone_player=0

ishi-level easy
1 ishi-level
#? [easy]
2 ishi-illegal_reason b c3d3
#? []
3 ishi-illegal_reason w a4b4
#? [wrong_turn]
4 ishi-illegal_reason b b1a1
#? [own_marble_off]
5 ishi-illegal_reason b d4e4
#? [not_own_line]
# Broadside a1,a2 to b2,b3: b2 holds a black marble.
50 ishi-illegal_reason b a1a2b2
#? [blocked]
6 play b c2c3
#? []
7 ishi-hint w
#? [[a-i][1-9][a-i][1-9]([a-i][1-9])?]
8 play w a4b4
#? []
9 ishi-illegal_reason b c3c4
#? [no_sumito]
10 play b c3c4
#? [?illegal move]
# The hint changed nothing: without it the engine plays a2b3 here (deterministic mode).
11 genmove b
#? [a2b3]
12 undo
#? []
13 undo
#? []
14 final_score
#? [0]
