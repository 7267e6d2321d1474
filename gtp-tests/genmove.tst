# genmove and reg_genmove at the protocol level: upper-case vertices and lower-case pass,
# genmove plays its move and reg_genmove does not, either colour at any time, pass when
# nothing else is legal. Move quality is for other suites.
# ishi-args: --playouts 50

boardsize 9
clear_board
1 reg_genmove b
#? [[A-HJ][1-9]]
2 showboard
#? [[^X]*black to move.*]
3 genmove b
#? [[A-HJ][1-9]]
4 showboard
#? [[^X]*X[^X]*white to move.*]
# The same colour again is fine; the move is on the board, so undo takes it back.
5 genmove black
#? [[A-HJ][1-9]]
6 showboard
#? [[^X]*X[^X]*X[^X]*]
7 undo
8 undo
9 showboard
#? [[^X]*black to move.*]

# Columns past I and up to Z on the biggest board.
boardsize 25
10 genmove w
#? [[A-HJ-Z]([1-9]|1[0-9]|2[0-5])]
11 reg_genmove B
#? [[A-HJ-Z]([1-9]|1[0-9]|2[0-5])]

# Nothing legal but pass: white may not play into black's two one-point eyes.
boardsize 2
gogui-setup b A1 b B2
12 genmove w
#? [pass]
13 reg_genmove w
#? [pass]
# Black should not fill its own eyes either.
14 genmove b
#? [pass]

# kgs-game_over does not reset the board (Pachi's warning).
boardsize 9
clear_board
play b E5
15 kgs-game_over
16 showboard
#? [[^X]*X[^X]*]
17 gogui-interrupt
#? []
