# Capture Go: the first player to capture the target number of stones wins, whatever the
# board looks like; `--rules capture:N` or ishi-capture_target N set it. Komi is 0.
# ishi-args: --rules capture:2

1 showboard
#? [.*rules capture:2]
2 get_komi
#? [0]
3 kata-get-rules
#? [\{.*\}]

# One capture is not enough: the score is still counted on the board, area style, every
# stone alive (capture Go takes stones off only by capturing).
boardsize 9
clear_board
play b D5
play w E5
play b F5
play w A1
play b E6
play w A2
play b E4
10 captures black
#? [1]
11 final_score
#? [B\+3]
# Black takes two more: three captures reach the target, black has won.
play w J9
play b A3
play w J8
play b B2
play w J7
play b B1
12 captures black
#? [3]
13 final_score
#? [B\+[0-9.]+]
play w H8
play b pass
play w G7
14 final_score
#? [B\+[0-9.]+]

# ishi-capture_target changes the target in the middle of a game: with 5 to reach, nobody has
# won yet and the board counts (10 points to 5); with 3, black has won again.
15 ishi-capture_target 5
16 final_score
#? [B\+5]
17 showboard
#? [.*rules capture:5]
18 ishi-capture_target 3
19 final_score
#? [B\+[0-9.]+]

# White can win too, behind on the board (3 points to 4) but first to capture.
clear_board
ishi-capture_target 1
play b E5
play b D4
play b C3
play b A1
play w A2
play b J9
20 final_score
#? [B\+4]
play w B1
21 captures white
#? [1]
22 final_score
#? [W\+[0-9.]+]

# Refused targets leave the rules alone.
30 ishi-capture_target 0
#? [?.+]
31 ishi-capture_target
#? [?syntax error]
32 ishi-capture_target three
#? [?syntax error]
33 ishi-capture_target -2
#? [?syntax error]
34 showboard
#? [.*rules capture:1]
# Back to an ordinary game: scored with dead stones judged (the lone white stones are dead).
kgs-rules chinese
35 final_score
#? [B\+[0-9.]+]
36 showboard
#? [.*rules chinese]
