//! Text that leaves or enters the game: a bug report or a position to
//! copy out, a position to bring in. On the desktop a text file in the home
//! folder, and the clipboard; on the web a box on the page with a copy
//! button (the browser has no files to give).

use crate::rules::data::GameId;

/// Where exported text went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Exported {
    /// Written to this file (and copied to the clipboard when `copied`).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    File { file: String, copied: bool },
    /// Shown on the page, to be selected and copied.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    OnPage,
}

/// What an import found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Imported {
    /// The text of the file.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    Text(String),
    /// A box on the page takes the text and restarts the game with it.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    OnPage,
}

/// What a link to exported text opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Share {
    /// The game, started from the position (or game) text.
    Position(GameId),
    /// The review of the finished game the text holds.
    Review(GameId),
}

/// The fragment of a link that opens `game` at `position` (the page reads
/// `#game=…&position=…`): every byte but the URL-unreserved ones is
/// percent-encoded, so that any position text, a KIF with its line breaks
/// included, arrives unchanged.
pub fn share_fragment(game: GameId, position: &str) -> String {
    Share::Position(game).fragment(position)
}

impl Share {
    /// The fragment of the link to `text` (`#game=…&position=…` or
    /// `#game=…&review=…`).
    pub fn fragment(self, text: &str) -> String {
        let mut encoded = String::with_capacity(text.len() * 3);
        for byte in text.bytes() {
            if byte.is_ascii_alphanumeric() || b"-_.~".contains(&byte) {
                encoded.push(char::from(byte));
            } else {
                encoded.push_str(&format!("%{byte:02X}"));
            }
        }
        let (game, key) = match self {
            Share::Position(game) => (game, "position"),
            Share::Review(game) => (game, "review"),
        };
        format!("game={}&{key}={encoded}", game.id())
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use super::*;
    use std::path::PathBuf;

    /// `~/yorimichi-<name>.txt` (the temp folder without a home).
    pub fn path(name: &str) -> PathBuf {
        std::env::var_os("HOME")
            .or_else(|| std::env::var_os("USERPROFILE"))
            .map(PathBuf::from)
            .unwrap_or_else(std::env::temp_dir)
            .join(format!("yorimichi-{name}.txt"))
    }

    /// The path as a player reads it: `~/…` inside the home folder (the
    /// message has little room on the play screen).
    fn shown(path: &std::path::Path) -> String {
        let home = std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE"));
        match home.and_then(|h| path.strip_prefix(h).ok().map(|p| p.display().to_string())) {
            Some(rest) => format!("~/{rest}"),
            None => path.display().to_string(),
        }
    }

    /// The clipboard, kept for the whole run: on X11 the copied text is
    /// served by it, and would be lost with it.
    static CLIPBOARD: std::sync::Mutex<Option<arboard::Clipboard>> = std::sync::Mutex::new(None);
    /// The text last copied out, to tell a pasted text from our own.
    static LAST_COPIED: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

    fn with_clipboard<T>(f: impl FnOnce(&mut arboard::Clipboard) -> Option<T>) -> Option<T> {
        let mut slot = CLIPBOARD.lock().ok()?;
        if slot.is_none() {
            *slot = arboard::Clipboard::new().ok();
        }
        f(slot.as_mut()?)
    }

    /// A link needs a page to open: the desktop writes the text only.
    pub(crate) fn export_text(
        name: &str,
        text: &str,
        _share: Option<Share>,
    ) -> Result<Exported, String> {
        let path = path(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", shown(&path)))?;
        let copied = with_clipboard(|c| c.set_text(text.to_string()).ok()).is_some();
        if copied && let Ok(mut last) = LAST_COPIED.lock() {
            *last = Some(text.trim().to_string());
        }
        Ok(Exported::File {
            file: shown(&path),
            copied,
        })
    }

    /// Text on the clipboard that was copied from elsewhere (not the
    /// game's own last export, which would hide an edited file).
    pub(crate) fn pasted_text() -> Option<String> {
        let text = with_clipboard(|c| c.get_text().ok())?;
        let text = text.trim().to_string();
        let ours = LAST_COPIED.lock().ok()?.as_deref() == Some(text.as_str());
        (!text.is_empty() && !ours).then_some(text)
    }

    pub(crate) fn import_text(name: &str, _game: GameId) -> Result<Imported, String> {
        let path = path(name);
        std::fs::read_to_string(&path)
            .map(|t| Imported::Text(t.trim().to_string()))
            .map_err(|e| format!("{}: {e}", shown(&path)))
    }
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use super::*;

    fn escape(text: &str) -> String {
        text.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    }

    /// A box in the middle of the page; `extra` is more buttons.
    fn show(id: &str, text: &str, readonly: bool, extra: &str) -> Result<(), String> {
        let document = web_sys::window()
            .and_then(|w| w.document())
            .ok_or("no document")?;
        if let Some(old) = document.get_element_by_id(id) {
            old.remove();
        }
        let body = document.body().ok_or("no page body")?;
        let readonly = if readonly { "readonly" } else { "" };
        let html = format!(
            "<div id=\"{id}\" style=\"position:fixed;left:50%;top:50%;transform:translate(-50%,-50%);max-width:90vw;\
             background:#fdf8ec;border:2px solid #4c3826;border-radius:10px;padding:12px;z-index:10\">\
             <textarea {readonly} rows=\"8\" style=\"width:min(36em,80vw);box-sizing:border-box\" onfocus=\"this.select()\">{}</textarea><br>\
             {extra}<button onclick=\"this.parentNode.remove()\">閉じる / Close</button></div>",
            escape(text)
        );
        body.insert_adjacent_html("beforeend", &html)
            .map_err(|_| "the page refused the text".to_string())
    }

    /// With `share`, the box also gives a link that opens the game there.
    pub(crate) fn export_text(
        name: &str,
        text: &str,
        share: Option<Share>,
    ) -> Result<Exported, String> {
        let mut buttons = "<button onclick=\"navigator.clipboard.writeText(\
                    this.parentNode.querySelector('textarea').value)\">コピー / Copy</button> "
            .to_string();
        if let Some(share) = share {
            let location = web_sys::window()
                .map(|w| w.location())
                .ok_or("no page address")?;
            let page = format!(
                "{}{}",
                location.origin().unwrap_or_default(),
                location.pathname().unwrap_or_default()
            );
            let link = format!("{page}#{}", share.fragment(text));
            buttons = format!(
                "<input class=\"share-link\" readonly value=\"{}\" \
                 style=\"width:100%;box-sizing:border-box;margin:4px 0\" onfocus=\"this.select()\"><br>\
                 {buttons}<button onclick=\"navigator.clipboard.writeText(\
                 this.parentNode.querySelector('.share-link').value)\">リンクをコピー / Copy link</button> ",
                escape(&link)
            );
            // A 中将棋 position or game opens in the analysis page beside
            // the game (analysis.html reads the same fragment).
            if let Share::Position(GameId::ChuShogi) = share {
                buttons.push_str(&format!(
                    "<a class=\"analysis-link\" href=\"analysis.html#{}\" target=\"_blank\">\
                     検討ページで開く / Open in the analysis page</a> ",
                    escape(&share.fragment(text))
                ));
            }
        }
        show(&format!("export-{name}"), text, true, &buttons)?;
        Ok(Exported::OnPage)
    }

    /// The page pastes into its own box: nothing to read here.
    pub(crate) fn pasted_text() -> Option<String> {
        None
    }

    /// The box's button reloads the page with `?game=…&position=…`, which
    /// the page hands to the game at start (see `web::start_options`).
    pub(crate) fn import_text(name: &str, game: GameId) -> Result<Imported, String> {
        let button = format!(
            "<button onclick=\"location.search='?game={}&{name}='+encodeURIComponent(\
             this.parentNode.querySelector('textarea').value.trim())\">この局面で始める / Start from it</button> ",
            game.id()
        );
        show(&format!("import-{name}"), "", false, &button)?;
        Ok(Imported::OnPage)
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub use imp::path;
pub(crate) use imp::{export_text, import_text, pasted_text};
