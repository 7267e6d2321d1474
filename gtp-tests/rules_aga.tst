# Ko, superko and suicide under AGA rules, set on the command line.
# Area scoring, situational superko, no suicide.
# Legality is asked with is_legal, so the file holds whether `play` is strict or tolerant.
# ishi-args: --rules aga

1 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"SITUATIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N-1"\}]
2 get_komi
#? [7.5]
3 showboard
#? [.*rules aga]

# A ko in the centre: white D5 sits in black's mouth, black E5 takes it.
boardsize 9
clear_board
play b C5
play w E6
play b D6
play w E4
play b D4
play w F5
play b A9
play w D5
10 is_legal b E5
#? [1]
play b E5
11 captures black
#? [1]
# The ko point is marked on the board.
12 showboard
#? [.* 5 +\. \. X \* X O \. \. \. +5.*]
# White may not take back at once...
13 is_legal w D5
#? [0]
14 is_legal w d5
#? [0]
# ...but may after a threat and its answer (a new whole-board position under every rule).
play w J1
play b J2
15 is_legal w D5
#? [1]
play w D5
16 captures white
#? [1]
17 is_legal b E5
#? [0]

# Retaking after two passes recreates the position after white's first D5, black to move
# as then: simple ko allows it, positional and situational superko forbid it.
clear_board
play b C5
play w E6
play b D6
play w E4
play b D4
play w F5
play b A9
play w D5
play b E5
play w pass
play b pass
20 is_legal w D5
#? [0]
# Black may always fill the ko.
21 is_legal b D5
#? [1]

# The same board with the other side to move: the position is set up with white to move,
# black takes the ko out of turn, both pass, and white's retake recreates the set-up board
# with black to move. Only positional superko forbids it.
clear_board
gogui-setup b C5 b D6 b D4 w E6 w E4 w F5 w D5
gogui-setup_player w
play b E5
play w pass
play b pass
30 is_legal w D5
#? [1]

# Suicide. A lone stone may never kill itself.
clear_board
play w H1
play w J2
40 is_legal b J1
#? [0]
41 play b J1
#? [?illegal move]
# Black's A1 and B1 keep the liberty C1 until white plays there.
play b A1
play w A2
play w B2
42 is_legal b B1
#? [1]
play w C1
# White B1 would take A1's last liberty and capture it.
43 is_legal w B1
#? [1]
# Black B1 would leave A1-B1 without a liberty, capturing nothing: multi-stone suicide.
44 is_legal b B1
#? [0]
# Here it is forbidden: the position does not change.
45 showboard
#? [.* 2 +O O (\. ){6}O +2\n 1 +X \. O (\. ){4}O \. +1\n.*]

# A suicide that recreates an earlier board: the board after white's C1 here, but with
# white to move instead of black, so only positional superko (or no suicide) forbids it.
clear_board
play w A2
play w B2
play w C1
play b A1
50 is_legal b B1
#? [0]

# Handicap compensation: two stones and nothing else on the board (area rules give white
# N, N-1 or no points for them).
clear_board
komi 7.5
fixed_handicap 2
60 final_score
#? [B\+72\.5]
