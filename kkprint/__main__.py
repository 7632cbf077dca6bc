from kkprint.cli import main

main()
