"""`python -m arena` is the same as the `arena` console script."""

from arena.cli import main

if __name__ == "__main__":
    main()
