# Area scoring (Chinese rules) of finished positions, and final_status_list. The dead stones
# mostly lie in the other side's pass-alive territory, where pass-alive analysis is the truth;
# the last ones need the playout judgement (gtp-tests/endgame.tst has more).
# ishi-args: --rules chinese

# Two walls with two eyes each: 21 points to 21, komi decides.
loadsgf sgf/two-walls-7x7.sgf
1 get_komi
#? [7.5]
2 final_score
#? [W\+7\.5]
3 final_status_list dead
#? []
4 final_status_list seki
#? []
5 final_status_list alive
#? [([A-G][1-7] ){18}[A-G][1-7]\n([A-G][1-7] ){18}[A-G][1-7]]
6 final_status_list ALIVE
#? [([A-G][1-7] ){18}[A-G][1-7]\n([A-G][1-7] ){18}[A-G][1-7]]
komi 0
7 final_score
#? [0]
komi -2
8 final_score
#? [B\+2]
komi 7.5
# Filling the neutral points changes nothing under area rules.
play b D4
play w D3
play b D2
play w D1
9 final_score
#? [W\+7\.5]

# A dead white stone in black's eye and a dead black stone in white's: 21 points to 28.
loadsgf sgf/dead-stones-7x7.sgf
10 final_score
#? [W\+14\.5]
11 final_status_list dead
#? [A6\nG6|G6\nA6]
12 final_status_list alive
#? [([A-G][1-7] ){16}[A-G][1-7]\n([A-G][1-7] ){23}[A-G][1-7]]
13 final_status_list seki
#? []
# Capturing the dead stone changes nothing under area rules.
play b A7
play w pass
play b A5
14 captures black
#? [1]
15 final_score
#? [W\+14\.5]
16 final_status_list dead
#? [G6]
# After two passes the record carries the result.
play w pass
play b pass
17 printsgf
#? [.*RE\[W\+14\.5\].*]

# Narrower walls set up by GTP, three neutral columns between them: 14 points to 14.
clear_board
boardsize 7
gogui-setup b B1 b B2 b B3 b B4 b B5 b B6 b B7 b A1 b A3 b A4 w A6
gogui-setup w F1 w F2 w F3 w F4 w F5 w F6 w F7 w G1 w G3 w G4 b G6
20 final_score
#? [W\+7\.5]
21 final_status_list dead
#? [A6\nG6|G6\nA6]

# A lone white stone in black's open area, where no pass-alive analysis sees it dead: truly
# black's 45 points to white's 36 (B+1.5).
boardsize 9
gogui-setup b E1 b E2 b E3 b E4 b E5 b E6 b E7 b E8 b E9 w B7
gogui-setup w F1 w F2 w F3 w F4 w F5 w F6 w F7 w F8 w F9
30 final_status_list dead
#? [B7]
31 final_score
#? [B\+1\.5]
