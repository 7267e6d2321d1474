# Rules changed by GTP: kgs-rules (kgsGtp's names), kata-set-rules (KataGo's shorthands and
# JSON) and kata-get-rules. A change of rules keeps the position, so one ko position is asked
# about under each ruleset. The ruleset's komi applies until GTP sends one.

# The start-up rules are Chinese.
1 kata-get-rules
#? [\{.*"ko":"POSITIONAL","scoring":"AREA","suicide":false.*\}]
2 get_komi
#? [7.5]

# Black took the ko at E5, both passed: may white retake at D5? Only under simple ko.
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
play b E5
play w pass
play b pass

# kgs-rules: chinese, japanese, aga, new_zealand.
kgs-rules japanese
10 is_legal w D5
#? [1]
11 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"SIMPLE","scoring":"TERRITORY","suicide":false,"tax":"SEKI","whiteHandicapBonus":"0"\}]
12 get_komi
#? [6.5]
13 kgs-rules chinese
14 is_legal w D5
#? [0]
15 get_komi
#? [7.5]
16 kgs-rules aga
17 is_legal w D5
#? [0]
18 kata-get-rules
#? [\{.*"ko":"SITUATIONAL","scoring":"AREA","suicide":false.*"whiteHandicapBonus":"N-1"\}]
19 kgs-rules new_zealand
20 kata-get-rules
#? [\{.*"ko":"SITUATIONAL","scoring":"AREA","suicide":true.*"whiteHandicapBonus":"0"\}]
21 kgs-rules tromp-taylor
#? [?.+]
22 kgs-rules
#? [?syntax error]
23 kgs-rules japanese chinese
#? [?syntax error]
# A refused change keeps the rules in force.
24 kata-get-rules
#? [\{.*"ko":"SITUATIONAL","scoring":"AREA","suicide":true.*\}]

# kata-set-rules: KataGo's shorthands, in any case, with - or _.
30 kata-set-rules japanese
31 is_legal w D5
#? [1]
32 kata-set-rules tromp-taylor
33 is_legal w D5
#? [0]
34 kata-get-rules
#? [\{"friendlyPassOk":false,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0"\}]
35 kata-set-rules Korean
36 kata-get-rules
#? [\{.*"ko":"SIMPLE","scoring":"TERRITORY".*\}]
37 kata-set-rules new_zealand
38 kata-get-rules
#? [\{.*"ko":"SITUATIONAL","scoring":"AREA","suicide":true.*\}]
39 kata-set-rules bga
40 kata-get-rules
#? [\{.*"ko":"SITUATIONAL".*"whiteHandicapBonus":"N-1"\}]
41 kata-set-rules chess
#? [?unknown rules.*]
42 kata-set-rules
#? [?syntax error]

# kata-set-rules with KataGo's JSON: keys not given keep Chinese values.
50 kata-set-rules {"ko":"SIMPLE","scoring":"AREA","suicide":false}
51 is_legal w D5
#? [1]
52 kata-get-rules
#? [\{.*"ko":"SIMPLE","scoring":"AREA","suicide":false.*\}]
53 kata-set-rules {"ko":"POSITIONAL","scoring":"TERRITORY","suicide":true,"whiteHandicapBonus":"0"}
54 is_legal w D5
#? [0]
55 kata-get-rules
#? [\{.*"ko":"POSITIONAL","scoring":"TERRITORY","suicide":true.*"whiteHandicapBonus":"0"\}]
56 kata-set-rules {"ko":"SOMETIMES"}
#? [?.+]
57 kata-set-rules {"colour":"blue"}
#? [?.+]
58 kata-set-rules {not json
#? [?.+]
59 kata-get-rules
#? [\{.*"ko":"POSITIONAL","scoring":"TERRITORY","suicide":true.*\}]

# Komi sent by GTP wins over every ruleset's default from then on.
komi 0.5
kgs-rules japanese
60 get_komi
#? [0.5]
kata-set-rules chinese
61 get_komi
#? [0.5]
clear_board
62 get_komi
#? [0.5]
