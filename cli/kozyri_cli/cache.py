"""``kozyri cache``: where the compiled kernels are kept, and clearing them."""

from __future__ import annotations

import click

from kozyri.caches import NUMBA_CACHE_VARIABLE, cache_size, clear_cache, numba_cache
from kozyri_cli import main
from kozyri_cli.common import emit_json

CACHE_EPILOG = f"""\b
Numba compiles kozyri's kernels on first use (some seconds to a minute) and
keeps the machine code in this folder, so that the next run starts at once.
It is the user's cache folder, never the installed package: installing,
reinstalling or uninstalling kozyri leaves nothing behind and reads nothing
stale. {NUMBA_CACHE_VARIABLE}=FOLDER puts it elsewhere. Clearing it is always
safe: the next run compiles again.
\b
  kozyri cache             the folder and its size
  kozyri cache --clear     empty it"""


@main.command(epilog=CACHE_EPILOG)
@click.option("--clear", is_flag=True, help="Remove the compiled kernels (the next run compiles them again).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: folder, files, bytes, cleared.")
def cache(clear, as_json):
    """Where the compiled kernels are cached, and clearing them."""
    folder = numba_cache()
    files, size = clear_cache(folder) if clear else cache_size(folder)
    if as_json:
        emit_json({"folder": str(folder), "files": files, "bytes": size, "cleared": clear})
    elif clear:
        click.echo(f"cleared {folder}: {files} files, {size / 1e6:.1f} MB")
    else:
        click.echo(f"compiled kernels: {folder} ({files} files, {size / 1e6:.1f} MB); "
                   "clear with: kozyri cache --clear")

