from boneyard.cli import main

main()
