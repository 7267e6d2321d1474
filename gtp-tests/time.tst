# Time commands in every form controllers send: time_settings (Canadian, absolute as
# `T 0 0`, no limit as `0 1 0`), time_left (float seconds, slightly negative from lag,
# periods under byo-yomi) and kgs-time_settings; malformed forms are refused. Sabaki may send
# time settings as the very first command.
# ishi-args: --playouts 50

1 time_settings 300 30 5
2 time_settings 0 1 0
3 time_settings 60 0 0
4 time_settings 300.5 29.5 25
5 time_settings 0 0 0
10 time_settings 300 30 -5
#? [?syntax error]
11 time_settings -1 30 5
#? [?syntax error]
12 time_settings 300 -30 5
#? [?syntax error]
13 time_settings 300 30
#? [?syntax error]
14 time_settings 300 30 5 1
#? [?syntax error]
15 time_settings five minutes please
#? [?syntax error]
16 time_settings 300 30 2.5
#? [?syntax error]
17 time_settings nan 30 5
#? [?syntax error]
18 time_settings
#? [?syntax error]

# time_left: colour, seconds, stones (0 in main time).
time_settings 300 30 5
20 time_left b 300 0
21 time_left w 25.5 3
22 time_left BLACK 0 0
23 time_left white 12 1
24 time_left b -0.5 0
25 time_left b -100 0
#? [?syntax error]
26 time_left purple 10 0
#? [?syntax error]
27 time_left b 10
#? [?syntax error]
28 time_left b 10 1.5
#? [?syntax error]
29 time_left b ten 0
#? [?syntax error]
30 time_left b 10 -1
#? [?syntax error]
31 time_left
#? [?syntax error]

# kgs-time_settings: none, absolute, canadian, byoyomi.
40 kgs-time_settings none
41 kgs-time_settings absolute 600
42 kgs-time_settings canadian 600 30 5
43 kgs-time_settings byoyomi 600 30 5
44 kgs-time_settings BYOYOMI 1 2 3
45 kgs-time_settings absolute 90.5
# Under byo-yomi, time_left's last number counts periods.
kgs-time_settings byoyomi 600 30 5
46 time_left b 30 2
47 time_left w 512.25 0
50 kgs-time_settings fischer 600 5
#? [?syntax error]
51 kgs-time_settings absolute
#? [?syntax error]
52 kgs-time_settings byoyomi 600 30
#? [?syntax error]
53 kgs-time_settings absolute -5
#? [?syntax error]
54 kgs-time_settings
#? [?syntax error]
55 kgs-time_settings none 5
#? [?syntax error]
56 kgs-time_settings canadian 600 30 x
#? [?syntax error]
57 kgs-time_settings byoyomi 600 30 -2
#? [?syntax error]

# The game goes on under a clock: genmove answers a move, and cputime a number.
boardsize 9
clear_board
time_settings 10 1 1
time_left b 10 0
60 genmove b
#? [[A-HJ][1-9]|pass]
61 cputime
#? [[0-9]+(\.[0-9]+)?]
kgs-time_settings byoyomi 5 1 3
62 genmove w
#? [[A-HJ][1-9]|pass]
time_settings 0 1 0
63 genmove b
#? [[A-HJ][1-9]|pass]
