# The value network mixed into the leaf results (--param value_weight, 50 by default,
# models/README.md): the shipped network loads, the search plays, and deterministic mode still
# repeats (the genmove after reg_genmove reuses its tree, so it may choose otherwise). The
# moves are those of the shipped network (step 8, step 7 trained two epochs more, since December 2026).
# ishi-args: --playouts 400

1 ishi-param
#? [.*\[string\] value_weight 50.*]
play b E5
2 reg_genmove w
#? [G5]
3 genmove w
#? [G5]
play b C3
4 genmove w
#? [F7]
# 13x13 and 19x19: the network learned them too; 11x11 it never learned but is trusted on
# (7x7 to 19x19; boardsize 5 would back up playouts alone).
boardsize 13
play b G7
5 genmove w
#? [!pass]
boardsize 11
play b F6
8 genmove w
#? [!pass]
boardsize 19
play b Q16
6 genmove w
#? [!pass]
# Capture Go has no value network: playouts alone.
kgs-rules chinese
ishi-capture_target 1
boardsize 7
play b D4
7 genmove w
#? [!pass]
