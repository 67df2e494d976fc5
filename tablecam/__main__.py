import sys

from tablecam.cli import main

sys.exit(main())
