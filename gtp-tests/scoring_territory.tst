# Territory scoring (Japanese rules): surrounded empty points plus prisoners plus dead stones;
# filling one's own territory costs points, filling neutral points does not.
# ishi-args: --rules japanese

# Two walls with two eyes each: 2 points to 2.
loadsgf sgf/two-walls-7x7.sgf
komi 6.5
1 final_score
#? [W\+6\.5]
komi 0
2 final_score
#? [0]
komi 6.5
play b D4
play w D3
play b D2
play w D1
3 final_score
#? [W\+6\.5]

# Dead stones: 4 points of territory plus the dead stone as a prisoner, each.
loadsgf sgf/dead-stones-7x7.sgf
komi 6.5
10 final_score
#? [W\+6\.5]
11 final_status_list dead
#? [A6\nG6|G6\nA6]
# Black takes the dead stone off by filling two of its own points: 2 points plus 1 prisoner.
play b A7
play w pass
play b A5
12 captures black
#? [1]
13 final_score
#? [W\+8\.5]
# Under area rules the same position is still 21 to 28.
kgs-rules chinese
komi 7.5
14 final_score
#? [W\+14\.5]
