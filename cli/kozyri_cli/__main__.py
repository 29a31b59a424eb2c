"""``python -m kozyri_cli``: the same as the ``kozyri`` command."""

from kozyri_cli import main

main(prog_name="kozyri")
