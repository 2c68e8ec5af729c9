# -*- Python -*- lit configuration for kevin's GoogleTest unit tests: every
# executable named *Tests under <build>/unittests is one suite, each TEST one lit test.
import os
import lit.formats

config.name = "kevin-unit"
config.test_format = lit.formats.GoogleTest(".", "Tests")
config.suffixes = []
config.test_source_root = os.path.join(config.kevin_obj_root, "unittests")
config.test_exec_root = config.test_source_root
