# Abalone's ply cap: after --max-plies moves the game is over; more ejections win, equal is
# a draw (games-protocol.md "Abalone").
# ishi-args: --game abalone --max-plies 4 --playouts 100

play b c2c3
play w a4b4
play b b1c2
play w i5h5
1 genmove b
#? [?game over]
2 play b a1b2
#? [?illegal move]
7 ishi-illegal_reason b a1b2
#? [game_over]
3 all_legal_moves b
#? []
4 final_score
#? [0]
5 showboard
#? [.*ply 4 of 4.*]
# Undo reopens the game.
undo
6 all_legal_moves w
#? [.+]
