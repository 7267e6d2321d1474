# Framing and the administrative commands of GTP v2: ids echoed, `=` and `?` answers,
# known_command and list_commands derived from one table, showboard without empty lines.
# The runner checks every answer byte by byte: `=`/`?`, the id, one space, no CR, no empty
# line inside, exactly one empty line after.

1 protocol_version
#? [2]

2 name
#? [ishi]

3 version
#? [[0-9]+\.[0-9]+\.[0-9]+\S*]

# Id 0 is an id like any other; big ids are clamped to 2^31-1 (the runner checks the echo).
0 protocol_version
#? [2]
2147483647 name
#? [ishi]
99999999999 protocol_version

# Comments after a command are removed before it is read.
10 name # the rest of this line is a comment
#? [ishi]

# Extra spaces between the id, the name and the arguments do not matter.
11    known_command     play
#? [true]

# Command names are exact: case matters, nothing is guessed.
20 NAME
#? [?unknown command]
21 nam
#? [?unknown command]
22 frobnicate the board
#? [?unknown command]
23 list-commands
#? [?unknown command]

# known_command answers for every listed command and for nothing else.
30 known_command protocol_version
#? [true]
31 known_command genmove
#? [true]
32 known_command loadsgf
#? [true]
33 known_command gogui-play_sequence
#? [true]
34 known_command ishi-capture_target
#? [true]
35 known_command kata-get-rules
#? [true]
36 known_command frobnicate
#? [false]
37 known_command Genmove
#? [false]
38 known_command kgs-chat
#? [false]
39 known_command
#? [?syntax error]

# list_commands: one name per line, every required command, the extensions clients look for.
40 list_commands
#? [protocol_version\n.*]
41 list_commands
#? [.*^name$.*^version$.*]
42 list_commands
#? [.*^known_command$.*^list_commands$.*^quit$.*]
43 list_commands
#? [.*^boardsize$.*^clear_board$.*^komi$.*^play$.*^genmove$.*]
44 list_commands
#? [.*^undo$.*^showboard$.*^fixed_handicap$.*^place_free_handicap$.*^set_free_handicap$.*]
45 list_commands
#? [.*^time_settings$.*^time_left$.*^kgs-time_settings$.*]
46 list_commands
#? [.*^final_score$.*^final_status_list$.*^loadsgf$.*^printsgf$.*]
47 list_commands
#? [.*^reg_genmove$.*^is_legal$.*^kgs-rules$.*^kgs-game_over$.*^kata-set-rules$.*^kata-get-rules$.*]
48 list_commands
#? [.*^ishi-capture_target$.*^gogui-interrupt$.*^gogui-setup$.*^gogui-setup_player$.*^gogui-play_sequence$.*]
# Commands that break clients when listed (Sabaki's `analyze`, kgsGtp's `kgs-chat`).
49 list_commands
#? [!.*^(analyze|genmove_analyze|kgs-chat)$.*]
# Nothing but command names: no spaces, no empty names.
50 list_commands
#? [[a-z_-]+(\n[a-z_-]+)*]

# showboard: free text, but never an empty line (the runner checks); ishi's board shows the
# columns without I, the stones, and the side to move.
boardsize 9
clear_board
60 showboard
#? [A B C D E F G H J.*9 +(\. ){9} *9.*1 +(\. ){9} *1.*black to move.*]
play b E5
play w D4
61 showboard
#? [.* 5 +(\. ){4}X (\. ){4} *5\n 4 +(\. ){3}O (\. ){5} *4\n.*black to move.*]
play b pass
62 showboard
#? [.*white to move.*]
boardsize 25
63 showboard
#? [A B C D E F G H J K L M N O P Q R S T U V W X Y Z.*25 .*]

# Answers stay in order and keep their ids after errors.
70 play b
#? [?syntax error]
71 protocol_version
#? [2]

# Commands without an id get answers without an id (the runner checks the echo).
name
protocol_version
