# stamp.mk - build stamp shared by all targets
# evaluated once when make parses the Makefile
STAMP_HELPER := $(dir $(lastword $(MAKEFILE_LIST)))stamp.py
BUILD_STAMP  := $(shell python3 $(STAMP_HELPER) 2>/dev/null || date +%Y%m%d%H%M)
