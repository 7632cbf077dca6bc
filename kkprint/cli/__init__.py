"""The command line: one of kkprint's two doors (the other is :mod:`kkprint.web`). It parses
what the user typed, hands it to the features below and shows what they answer; it holds no
rule of any game and draws nothing."""
