# clean.mk - guarded clean targets; include from the project Makefile.

SHELL := /bin/bash
CLEAN_ROOT := $(abspath $(dir $(firstword $(MAKEFILE_LIST))))

CLEAN_DIRS ?= build dist coverage
DISTCLEAN_DIRS ?= node_modules .venv

# _guard: abort unless every argument is a non-empty relative path inside CLEAN_ROOT.
define _guard
	@for p in $(1); do \
	  case "$$p" in \
	    ""|/*|~*|*..*) echo "clean.mk: refusing unsafe path '$$p'" >&2; exit 1 ;; \
	  esac; \
	  real="$$(cd "$(CLEAN_ROOT)" && realpath -m -- "$$p")"; \
	  case "$$real" in \
	    "$(CLEAN_ROOT)"/*) ;; \
	    *) echo "clean.mk: '$$p' resolves outside $(CLEAN_ROOT)" >&2; exit 1 ;; \
	  esac; \
	done
endef

.PHONY: clean-plan clean distclean

clean-plan:
	$(call _guard,$(CLEAN_DIRS) $(DISTCLEAN_DIRS))
	@cd "$(CLEAN_ROOT)" && for p in $(CLEAN_DIRS); do \
	  [ -e "$$p" ] && du -sh -- "$$p" | sed 's/^/clean:     /'; done; true
	@cd "$(CLEAN_ROOT)" && for p in $(DISTCLEAN_DIRS); do \
	  [ -e "$$p" ] && du -sh -- "$$p" | sed 's/^/distclean: /'; done; true

clean:
	$(call _guard,$(CLEAN_DIRS))
	@cd "$(CLEAN_ROOT)" && rm -rf -- $(CLEAN_DIRS)
	@echo "removed: $(CLEAN_DIRS)"

distclean: clean
	$(call _guard,$(DISTCLEAN_DIRS))
	@cd "$(CLEAN_ROOT)" && rm -rf -- $(DISTCLEAN_DIRS)
	@echo "removed: $(DISTCLEAN_DIRS)"
