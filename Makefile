# Yorimichi: `make play` to play, `make test` for everything CI runs.
#
# Compiled output lives in one cache folder outside the clone ($(CACHE)), so
# that every command and every CI run reuses it: never `cargo clean` it.
SHELL := /bin/bash
CACHE ?= $(HOME)/.cache/yorimichi
export CARGO_TARGET_DIR ?= $(CACHE)/target
# The wasm build keeps its own folder: native and web builds then never wait
# for each other's lock.
WASM_TARGET_DIR := $(CACHE)/target-wasm
# The page's wasm only (not the engine package's): panics that abort at
# once, Debug output of names only.
WASM_SHRINK := ["-Zunstable-options", "-Cpanic=immediate-abort", "-Zfmt-debug=shallow"]
# The page's build patches naga_oil with a copy that asks regex for fewer
# Unicode tables (tools/web/patch_naga_oil.py), and resolves with its own
# copy of Cargo.lock there, so the repository's lock file never changes.
WASM_PATCHED := $(WASM_TARGET_DIR)/patched
BIN := $(CARGO_TARGET_DIR)/release/yorimichi
# The checks build the program once, with the room server in it (`yorimichi
# serve`); `make play` and the web build leave the server out.
FEATURES := --features server
# A screen that holds the largest window a picture opens (a phone's at
# twice its CSS pixels, the layout check's 1920x1080).
XVFB := xvfb-run -a -s "-screen 0 2000x2000x24"
SHOTS := $(CACHE)/shots
DIST := dist

.PHONY: install command-line-doc serve link-check choice-test play test deps-play deps-test web web-build web-test screenshot-test layout-test screenshots selfplay-table solver-table dice-table mawari-table rooms-table soak assets shogiops-test engine-web engine-web-test

play: deps-play
	cargo run --release

deps-play:
	@bash .ci/deps.sh play

deps-test:
	@bash .ci/deps.sh test

# Each stage prints the clock as it starts, so a slow stage shows in CI's log
# (the stages' cold and warm times: docs/contributing.md).
STAGE = @echo "[$$(date +%T)] make test: $(1)"

test: deps-test
	$(call STAGE,links)
	$(MAKE) link-check
	cargo fmt --check
	$(call STAGE,clippy)
	cargo clippy --release --all-targets $(FEATURES) -- -D warnings
	# The crate docs, every intra-doc link resolved (the release profile
	# reuses what clippy checked).
	RUSTDOCFLAGS="-D warnings" cargo doc --release --no-deps $(FEATURES)
	$(call STAGE,tests)
	cargo test --release $(FEATURES)
	$(call STAGE,shogiops)
	$(MAKE) shogiops-test
	$(call STAGE,screenshots)
	$(MAKE) screenshot-test
	$(call STAGE,web (build with clippy for wasm32, then the browser tests))
	$(MAKE) web-test
	$(call STAGE,done)

# Puts `yorimichi` on the PATH: `cargo install` builds it (with the room
# server) in the same cache folder as `make play` and copies it to
# ~/.cargo/bin, which rustup's installer puts on the PATH.
install: deps-play
	cargo install --locked --path . $(FEATURES) --target-dir $(CARGO_TARGET_DIR)
	@echo "installed: $$(command -v yorimichi || echo $(HOME)/.cargo/bin/yorimichi)"

# The room server for play from several devices, on http://127.0.0.1:8787
# (rooms at ws://127.0.0.1:8787/ws), the rooms kept in yorimichi.sqlite3;
# the web build in dist/ is served too when there is one (`make web-build`).
serve:
	cargo build --release $(FEATURES)
	$(BIN) serve --listen 127.0.0.1:8787 --db yorimichi.sqlite3 $$(test -f $(DIST)/index.html && echo --web $(DIST))

# Every relative link, image and #anchor in README.md, CHANGELOG.md and
# docs/ must resolve (tools/check_links.py); its self-test first proves that
# it finds a missing file, a missing image and a missing anchor in a made-up
# tree. Every headline figure of the README must be the one its table in
# docs/ marks current (tools/check_figures.py, with its own self-test).
link-check:
	python3 tools/check_links.py --self-test
	python3 tools/check_links.py
	python3 tools/check_figures.py --self-test
	python3 tools/check_figures.py

# docs/command-line.md from the program's own help (a test in tests/cli
# fails when the page and the help differ).
command-line-doc:
	YORIMICHI_WRITE_DOCS=1 cargo test --release $(FEATURES) --test cli the_command_line_page

# 中将棋 under lishogi's rules against lishogi's own rules library
# (shogiops, pinned in tools/shogiops): the legal moves and the game's end
# in positions of seeded random games, and of sparse endings where the
# bare-king rule decides, must agree exactly, and KIF written
# by either side must read back as the same game on the other; every move
# of the matches against HaChu (docs/matches, docs/strength.md) must be legal there,
# and each game ended on the board must end there as the log says, each
# scored on a mated side's silence must be mated there (three
# made-up bad logs must fail that check).
SHOGIOPS_POSITIONS ?= 3000
SHOGIOPS_ENDINGS ?= 1000
SHOGIOPS_KIF_GAMES ?= 40
shogiops-test:
	cargo build --release $(FEATURES)
	cd tools/shogiops && npm ci --no-audit --no-fund --silent
	node tools/shogiops/diff.mjs $(BIN) --positions $(SHOGIOPS_POSITIONS) --seed 1
	node tools/shogiops/diff.mjs $(BIN) --positions $(SHOGIOPS_ENDINGS) --seed 1 --endings 1
	node tools/shogiops/kif.mjs $(BIN) --games $(SHOGIOPS_KIF_GAMES) --seed 1
	node tools/shogiops/replay.mjs docs/matches/*.log
	node tools/shogiops/tsume.mjs levels/problems/chushogi_tsume.ron
	for bad in tsume-illegal tsume-royal-left; do \
		node tools/shogiops/tsume.mjs tools/shogiops/fixtures/$$bad.ron > /dev/null; \
		test $$? -eq 1 || { echo "tsume.mjs passed the bad line $$bad"; exit 1; }; \
	done
	for bad in illegal wrong-winner false-mate; do \
		node tools/shogiops/replay.mjs tools/shogiops/fixtures/$$bad.log > /dev/null; \
		test $$? -eq 1 || { echo "replay.mjs passed the bad log $$bad"; exit 1; }; \
	done

# The real renderer under Xvfb with Mesa's software Vulkan: the title and
# the boards of every playable game must render.
screenshot-test:
	cargo build --release $(FEATURES)
	mkdir -p $(SHOTS)
	scenes=$$($(BIN) screenshot --list --smoke) && test -n "$$scenes" || exit 1; \
	for s in $$scenes; do rm -f $(SHOTS)/$$s.png; done; \
	for s in $$scenes; do $(XVFB) $(BIN) screenshot $$s $(SHOTS)/$$s.png || exit 1; done; \
	python3 tools/check_png.py $$(for s in $$scenes; do echo $(SHOTS)/$$s.png; done)
	# The room screen's QR code reads back (zbar) as its join link.
	$(XVFB) $(BIN) screenshot room $(SHOTS)/qr-room.png --controls $(SHOTS)/qr-room.tsv
	bash tools/check_qr.sh $(SHOTS)/qr-room.png $(SHOTS)/qr-room.tsv
	$(MAKE) choice-test

# Every chosen option reads without its colour: the setup screens, the
# settings and the game list pictured with their buttons listed, then seen
# in greyscale and as protanopes and deuteranopes see them
# (tools/check_choices.py, which first proves it catches colour alone).
CHOICE_SCENES := list list-phone settings hasami-setup hasami-room foxgeese-setup musashi-setup chushogi-setup chushogi-room mawari-setup mawari-family
choice-test:
	cargo build --release $(FEATURES)
	mkdir -p $(SHOTS)
	python3 tools/check_choices.py --self-test
	for s in $(CHOICE_SCENES); do \
		rm -f $(SHOTS)/choices-$$s.png $(SHOTS)/choices-$$s.tsv; \
		$(XVFB) $(BIN) screenshot $$s $(SHOTS)/choices-$$s.png --controls $(SHOTS)/choices-$$s.tsv || exit 1; \
	done
	python3 tools/check_choices.py $$(for s in $(CHOICE_SCENES); do echo $(SHOTS)/choices-$$s.png $(SHOTS)/choices-$$s.tsv; done)
	$(MAKE) layout-test

# Nothing clipped, overlapping or overflowing at any window size, and on a
# phone text of 14 px and buttons of 44 px: every scene's controls listed at
# five sizes (tools/check_layout.py, whose self-test first catches made-up
# bad layouts and the old clipped はさみ将棋 room setup). The scenes that only
# change the board's drawing or fix their own window size are left out: the
# same screens are listed without them. Only the listing is read, so the
# larger windows are drawn at half their pixels (the layout is the same),
# two at a time.
LAYOUT_SIZES := 390x844 844x390 768x1024@0.5 1100x800@0.5 1920x1080@0.5
LAYOUT_SAME := hasami-contrast hasami-symbol foxgeese-symbol chushogi-one-kanji chushogi-mnemonic chushogi-western list-phone chushogi-phone mawari-phone
layout-test:
	cargo build --release $(FEATURES)
	python3 tools/check_layout.py --self-test
	rm -rf $(SHOTS)/layout && mkdir -p $(SHOTS)/layout
	$(BIN) screenshot --list | grep -vxF $(foreach s,$(LAYOUT_SAME),-e $(s)) | \
		$(XVFB) bash tools/list_layouts.sh $(BIN) $(SHOTS)/layout $(LAYOUT_SIZES)
	python3 tools/check_layout.py --known tests/data/layout/known-faults.txt $(SHOTS)/layout/*.tsv

# Every picture of docs/screenshots.md, made by the real renderer; then
# each game's play screen on a phone (at twice its CSS pixels, as a phone
# draws it) held upright (中将棋 and まわり将棋 have their own phone scenes)
# and on its side.
PHONE_UPRIGHT := hasami musashi foxgeese
PHONE_GAMES := hasami musashi foxgeese chushogi mawari
screenshots: deps-test
	cargo build --release $(FEATURES)
	mkdir -p docs
	scenes=$$($(BIN) screenshot --list) && test -n "$$scenes" || exit 1; \
	for s in $$scenes; do $(XVFB) $(BIN) screenshot $$s docs/$$s.png || exit 1; done
	for s in $(PHONE_UPRIGHT); do $(XVFB) $(BIN) screenshot $$s docs/$$s-phone.png --size 390x844@2 || exit 1; done
	for s in $(PHONE_GAMES); do $(XVFB) $(BIN) screenshot $$s docs/$$s-phone-landscape.png --size 844x390@2 || exit 1; done

# The web version in $(DIST): the wasm shrunk by binaryen's wasm-opt (pinned
# in tools/web), the page, its offline copy (service worker, manifest,
# icons), the fonts and sounds, each text-like file precompressed as .br and
# .gz; prints every file's size raw, gzip and brotli against the budget.
web-build:
	@bash .ci/deps.sh web
	# Clippy lints this crate while it compiles for the browser (clippy's
	# driver stands in for rustc on this crate only), so the wasm32 code is
	# linted without checking all of Bevy a second time in another profile.
	# The standard library is compiled again for the page (rust-src): a
	# panic stops the page at once (no message, location or unwinding code
	# in the download), derived Debug prints type and variant names only,
	# and std takes its size-optimised code ($(WASM_SHRINK); docs/web.md,
	# "Sizes"), and naga_oil's regular expressions carry only the Unicode
	# table they read ($(WASM_PATCHED)). RUSTC_BOOTSTRAP lets the stable
	# toolchain take these unstable options, for this build alone.
	mkdir -p $(WASM_PATCHED)
	cargo metadata --format-version 1 --filter-platform wasm32-unknown-unknown > $(WASM_PATCHED)/metadata.json
	python3 tools/web/patch_naga_oil.py $(WASM_PATCHED)/metadata.json $(WASM_PATCHED)/naga_oil
	cp Cargo.lock $(WASM_PATCHED)/Cargo.lock
	RUSTC_BOOTSTRAP=1 \
	RUSTC_WORKSPACE_WRAPPER="$$(rustup which clippy-driver)" \
	CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" \
	cargo build --profile wasm-release --target wasm32-unknown-unknown --target-dir $(WASM_TARGET_DIR) \
		-Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size \
		--config 'target.wasm32-unknown-unknown.rustflags=$(WASM_SHRINK)' \
		-Zlockfile-path --config 'resolver.lockfile-path="$(WASM_PATCHED)/Cargo.lock"' \
		--config 'patch.crates-io.naga_oil.path="$(WASM_PATCHED)/naga_oil"'
	rm -rf $(DIST) && mkdir -p $(DIST)
	wasm-bindgen --target web --no-typescript --out-dir $(DIST) --out-name yorimichi \
		$(WASM_TARGET_DIR)/wasm32-unknown-unknown/wasm-release/yorimichi.wasm
	tools/web/node_modules/.bin/wasm-opt -Oz --strip-debug --strip-producers \
		--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
		--enable-mutable-globals --enable-reference-types --enable-multivalue \
		$(DIST)/yorimichi_bg.wasm -o $(DIST)/yorimichi_bg.wasm
	cp web/index.html web/sw.js web/manifest.webmanifest $(DIST)/
	cp -r web/icons $(DIST)/icons
	mkdir -p $(DIST)/assets/sounds && cp -r assets/fonts $(DIST)/assets/
	# The sounds' cue table is compiled in; the page fetches the sheet.
	cp assets/sounds/effects.ogg $(DIST)/assets/sounds/
	cp web/search-worker.js $(DIST)/
	node tools/web/pack.mjs $(DIST)

# The 中将棋 engine alone, for any web page, in $(DIST)/engine: the rules
# and the USI session built without Bevy (`--no-default-features --features
# engine-web`, the lib as a cdylib, linted by clippy as it compiles, in its
# own cache folder), wasm-bindgen's module, web/engine's worker.js (a Web
# Worker that takes USI lines by postMessage), README.md and package.json,
# the licences; prints each file's size raw, gzip and brotli and fails over
# 1 MiB brotli (docs/chushogi-engine.md#in-a-web-page). Then the analysis
# page on the same module, $(DIST)/analysis.html (docs/chushogi-engine.md#the-analysis-page).
# `make web-build` empties $(DIST), so build this after it.
ENGINE_DIST := $(DIST)/engine
ENGINE_WASM_TARGET_DIR := $(CACHE)/target-wasm-engine
engine-web:
	@bash .ci/deps.sh web
	RUSTC_WORKSPACE_WRAPPER="$$(rustup which clippy-driver)" \
	CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" \
	cargo rustc --profile engine-web --target wasm32-unknown-unknown --no-default-features --features engine-web \
		--lib --crate-type cdylib --target-dir $(ENGINE_WASM_TARGET_DIR)
	rm -rf $(ENGINE_DIST) && mkdir -p $(ENGINE_DIST)
	wasm-bindgen --target web --no-typescript --out-dir $(ENGINE_DIST) --out-name yorimichi_engine \
		$(ENGINE_WASM_TARGET_DIR)/wasm32-unknown-unknown/engine-web/yorimichi.wasm
	tools/web/node_modules/.bin/wasm-opt -O3 --strip-debug --strip-producers \
		--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
		--enable-mutable-globals --enable-reference-types --enable-multivalue \
		$(ENGINE_DIST)/yorimichi_engine_bg.wasm -o $(ENGINE_DIST)/yorimichi_engine_bg.wasm
	cp web/engine/worker.js web/engine/README.md LICENSE-MIT LICENSE-APACHE $(ENGINE_DIST)/
	node tools/web/engine_pack.mjs $(ENGINE_DIST)
	# The analysis page beside the game's index.html, on the same module;
	# its own offline copy, none of it in the game's first visit.
	cp web/analysis.html web/analysis.js web/analysis-worker.js web/analysis-sw.js $(DIST)/
	node tools/web/analysis_pack.mjs $(DIST)

# The engine worker in headless Chromium: a USI session over several
# positions (depth, movetime, infinite and stop, the mate solver, options,
# bad input, quit), every `info … pv` line and mate line judged legal by
# shogiops (tools/shogiops), and its nodes per second against the native
# `yorimichi usi` on the same positions where $(BIN) exists. Then the
# analysis page: a KIF read and stepped through, every best line shown in
# Japanese notation and judged by shogiops, the mate search, bad input,
# both languages, a phone's sizes, and the page offline after one visit.
engine-web-test: deps-test engine-web
	cd tools/shogiops && npm ci --no-audit --no-fund --silent
	node web/test/engine_test.mjs $(ENGINE_DIST) $(BIN)
	node web/test/analysis_test.mjs $(DIST)

# Builds the web version and serves it, precompressed, on
# http://127.0.0.1:8080.
web: web-build
	node tools/web/serve.mjs $(DIST) 8080

web-test: deps-test web-build
	mkdir -p $(SHOTS) && rm -f $(SHOTS)/web-*.png
	node web/test/web_test.mjs $(DIST) $(SHOTS)
	# Two players in two browser contexts through a room on the room
	# server, which serves the same build.
	cargo build --release $(FEATURES)
	node web/test/rooms_test.mjs $(BIN) $(DIST) $(SHOTS)
	# The CPU's worker on つよい's searches, beside the native program.
	$(BIN) bench chushogi --positions 4 --worker $(SHOTS)/searches-chushogi.txt
	$(BIN) bench hasami --positions 4 --worker $(SHOTS)/searches-hasami.txt
	node web/test/search_worker_test.mjs $(DIST) $(SHOTS)/searches-chushogi.txt $(SHOTS)/searches-hasami.txt
	python3 tools/check_png.py $(SHOTS)/web-title.png $(SHOTS)/web-list.png $(SHOTS)/web-play.png \
		$(SHOTS)/web-foxgeese.png $(SHOTS)/web-chushogi.png $(SHOTS)/web-musashi.png \
		$(SHOTS)/web-musashi-position.png $(SHOTS)/web-mawari.png $(SHOTS)/web-mawari-throw.png $(SHOTS)/web-mawari-family.png \
		$(SHOTS)/web-storage-full.png $(SHOTS)/web-storage-blocked.png $(SHOTS)/web-offline.png \
		$(SHOTS)/web-phone-hasami.png $(SHOTS)/web-phone-foxgeese.png $(SHOTS)/web-phone-musashi.png \
		$(SHOTS)/web-phone-chushogi.png $(SHOTS)/web-phone-mawari.png $(SHOTS)/web-review.png \
		$(SHOTS)/web-error-webgl.png $(SHOTS)/web-error-file.png \
		$(SHOTS)/web-room-lobby.png $(SHOTS)/web-room-play.png $(SHOTS)/web-room-result.png \
		$(SHOTS)/web-room-mawari.png $(SHOTS)/web-room-mawari-result.png $(SHOTS)/web-room-desktop.png
	# The 中将棋 engine alone in a worker, after the app's build (which
	# empties $(DIST)), beside the native engine just built.
	$(MAKE) engine-web-test

# The self-play strength table in docs/strength.md (takes a while: 200 games a pairing,
# 40 for 中将棋, whose つよい games take about a minute and a half each).
selfplay-table:
	cargo build --release $(FEATURES)
	$(BIN) selfplay hasami --games 200 --a strong --b normal | tail -3
	$(BIN) selfplay hasami --games 200 --a normal --b easy | tail -3
	$(BIN) selfplay foxgeese --games 100 --a strong --b normal --seed 1 | tail -3
	$(BIN) selfplay foxgeese --games 100 --a strong --b normal --seed 2 | tail -3
	$(BIN) selfplay foxgeese --games 200 --a normal --b easy | tail -3
	for p in standard seventeen old; do \
		$(BIN) selfplay foxgeese --games 20 --a strong --b strong --preset $$p --seed 5 | tail -3; done
	$(BIN) selfplay musashi --games 200 --a normal --b easy | tail -3
	for side in first second; do $(BIN) selfplay musashi --games 30 --a strong --b normal --seed 1 --a-side $$side | tail -3; done
	for s in 1 2; do $(BIN) selfplay musashi --games 100 --a strong --b normal --seed $$s --a-side first | tail -3; done
	for g in hasami foxgeese; do for s in 1 2; do \
		$(BIN) selfplay $$g --games 100 --a normal --b normal --seed $$s | tail -3; done; done
	for s in 1 2 3 4 5 6 7 8 9 10; do $(BIN) selfplay musashi --games 100 --a normal --b normal --seed $$s | tail -3; done
	for s in 1 2; do $(BIN) selfplay chushogi --games 20 --a normal --b easy --seed $$s | tail -3; done
	for s in 5 6; do $(BIN) selfplay chushogi --games 20 --a strong --b normal --seed $$s | tail -3; done

# Long robustness runs (issue 9): every text reader (SFEN, USI moves,
# 中将棋 games, 十六むさし positions, まわり将棋 races, saves) fuzzed for two
# minutes with mutated texts (`make test` runs 4 000 each), about a
# million random 中将棋 moves checking the incremental key and the quick
# no-move test at every position, a million random moves a game through
# the game records (tests/rules/playouts.rs) and a million まわり将棋 throws,
# every level file's asked moves read deeper (`yorimichi check --deep`),
# 200 CPU games of every game in the headless app (animations on;
# entity count and memory printed), a million 中将棋 positions and a
# thousand KIF games compared with shogiops, and the room server's load
# table (rooms-table).
soak:
	cargo build --release $(FEATURES)
	$(BIN) check --deep --levels levels
	YORIMICHI_FUZZ_SECONDS=120 cargo test --release $(FEATURES) --test rules text_fuzz:: -- --nocapture --test-threads 1
	YORIMICHI_PLAYOUT_GAMES=6500 cargo test --release $(FEATURES) --test rules chu_game::random_games -- --nocapture
	YORIMICHI_PLAYOUT_MOVES=1000000 cargo test --release $(FEATURES) --test rules playouts:: -- --nocapture --test-threads 1
	YORIMICHI_PLAYOUT_MOVES=1000000 cargo test --release $(FEATURES) --test rules mawari_rules::a_random_game -- --nocapture
	YORIMICHI_SOAK_GAMES=200 cargo test --release $(FEATURES) --test app cpu_games -- --nocapture --test-threads 1
	$(MAKE) shogiops-test SHOGIOPS_POSITIONS=1000000 SHOGIOPS_ENDINGS=100000 SHOGIOPS_KIF_GAMES=1000
	$(MAKE) rooms-table

# The room server's load table in docs/rooms.md: `yorimichi bench-rooms`
# starts its own server on a free loopback port with a temporary database
# (about five minutes: the runs with --think-ms play at a person's pace).
rooms-table:
	cargo build --release $(FEATURES)
	$(BIN) bench-rooms --rooms 200 --moves 100
	$(BIN) bench-rooms --rooms 200 --moves 100 --read-timeout-ms 1
	$(BIN) bench-rooms --rooms 200 --moves 100 --at-once 50
	$(BIN) bench-rooms --rooms 200 --moves 100 --at-once 10
	$(BIN) bench-rooms --rooms 200 --moves 100 --watchers 2
	$(BIN) bench-rooms --rooms 200 --moves 100 --watchers 2 --think-ms 1000
	$(BIN) bench-rooms --rooms 1 --moves 200 --think-ms 50
	$(BIN) bench-rooms --rooms 1 --moves 200 --think-ms 50 --read-timeout-ms 1
	$(BIN) bench-rooms --rooms 200 --moves 100 --think-ms 1000
	$(BIN) bench-rooms --rooms 200 --moves 100 --think-ms 1000 --read-timeout-ms 1

# The まわり将棋 koma-dice table in docs/mawari-dice.md (10 000 simulated throws).
dice-table:
	cargo build --release $(FEATURES)
	$(BIN) dice --throws 10000 --seed 1

# The まわり将棋 "how games end" table in docs/mawari-dice.md: 1 000 games with simulated
# throws for each preset and 2, 3 and 4 players.
mawari-table:
	cargo build --release $(FEATURES)
	for p in basic all; do for n in 2 3 4; do \
		$(BIN) selfplay mawari --games 1000 --players $$n --preset $$p --seed 1; \
	done; done

# The exact 十六むさし tables in docs/musashi-solver.md (about a minute).
solver-table:
	cargo build --release $(FEATURES)
	$(BIN) solve musashi --board 33 --max-ko 6
	$(BIN) solve musashi --board 25 --max-ko 6 --mirror

# Regenerates the subset fonts and the sound effects (not needed to build).
assets:
	python3 tools/make_assets.py
