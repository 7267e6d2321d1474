# The structured board (`ishi-board`, docs/board.md) of every game, and the players' own
# count after two passes (`ishi-score_dead`). The web board draws from these answers alone.

boardsize 5
komi 0.5
1 ishi-board
#? [\{"captures":\{"b":0,"w":0\},"game":"go","ko":null,"komi":0.5,"last_move":null,"moves":0,"over":false,"passes":0,"rules":"chinese","size":5,"stones":\[".....",".....",".....",".....","....."\],"to_move":"b"\}]
# A ko: Black takes at D3, White may not retake at C3 at once.
play b C4
play w D4
play b B3
play w E3
play b C2
play w D2
play b A1
play w C3
play b D3
2 play w C3
#? [?illegal move]
3 ishi-board
#? [\{"captures":\{"b":1,"w":0\},"game":"go","ko":"C3","komi":0.5,"last_move":"D3","moves":9,"over":false,"passes":0,"rules":"chinese","size":5,"stones":\["\.\.\.\.\.","\.\.XO\.","\.X\.XO","\.\.XO\.","X\.\.\.\."\],"to_move":"w"\}]
play w A5
4 ishi-board
#? [.*"ko":null.*"last_move":"A5".*"to_move":"b"\}]
clear_board
play b C3
play w D4
play b pass
play w pass
5 ishi-board
#? [.*"last_move":"pass","moves":4,"over":true,"passes":2.*"to_move":"b"\}]
# The players' count: both alive on 5x5 (area 1 each, komi 0.5), or one chain dead.
6 ishi-score_dead
#? [W\+0.5]
7 ishi-score_dead D4
#? [B\+24.5]
8 ishi-score_dead C3 D4
#? [W\+0.5]
9 ishi-score_dead c3
#? [W\+25.5]
10 ishi-score_dead Z9
#? [?illegal move]
11 ishi-score_dead pass
#? [?syntax error]
# Play goes on after two passes: the board says so.
12 play b B2
#? []
13 ishi-board
#? [.*"over":false,"passes":0.*"to_move":"w"\}]

ishi-game margo
boardsize 4
14 ishi-board
#? [\{"balls":\[\],"counts":\{"b":0,"w":0\},"game":"margo","grid":7,"last_move":null,"moves":0,"over":false,"score":"0","size":4,"swap":false,"to_move":null\}]
play b C3
15 ishi-board
#? [.*"balls":\[\{"color":"b","level":0,"state":"free","vertex":"C3"\}\].*"swap":true,"to_move":"w"\}]
play w swap
16 ishi-board
#? [.*"balls":\[\{"color":"w","level":0,"state":"free","vertex":"C3"\}\].*"last_move":"swap".*"swap":false,"to_move":"b"\}]

ishi-game abalone
17 ishi-board
#? [\{"ejected":\{"b":0,"w":0\},"game":"abalone","last_move":null,"marbles":\[.*\],"max_plies":400,"moves":0,"over":false,"ply":0,"score":"0","start":"belgian","to_move":"b"\}]
ishi-start standard
18 ishi-board
#? [.*"marbles":\[\{"cell":"a1","color":"b"\}.*\{"cell":"i9","color":"w"\}\].*"start":"standard".*]
play b c3d3
19 ishi-board
#? [.*"last_move":"c3d3".*"ply":1.*"to_move":"w"\}]
