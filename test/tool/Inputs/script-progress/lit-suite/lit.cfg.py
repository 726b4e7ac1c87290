# A two-test lit suite standing in for build/test (script-progress.test).
import os

import lit.formats

config.name = "fake"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.test_source_root
