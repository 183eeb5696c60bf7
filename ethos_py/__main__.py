"""__main__ - `python -m ethos_py ...` runs the `ethos` command (useful where the script is not on PATH)."""

from .cli import main

if __name__ == "__main__":
    main()
