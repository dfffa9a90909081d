//! Every UI string, in Japanese and English. Each key maps to both texts in
//! one match arm, so a missing translation does not compile; a test checks
//! that none is empty.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    #[default]
    Ja,
    En,
}

impl Lang {
    pub fn pick<'a>(self, ja: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Ja => ja,
            Lang::En => en,
        }
    }
    pub fn text(self, t: &crate::rules::data::Text) -> &str {
        self.pick(&t.ja, &t.en)
    }
}

/// Declares the text keys, their (Japanese, English) texts, and `T::ALL`,
/// all from one list, so no key can lack a text or be left out of `ALL`.
macro_rules! texts {
    ($($key:ident => ($ja:expr, $en:expr),)*) => {
        /// The keys of the fixed UI texts.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum T {
            $($key,)*
        }

        impl T {
            pub const ALL: &'static [T] = &[$(T::$key,)*];

            /// (Japanese, English).
            pub fn texts(self) -> (&'static str, &'static str) {
                match self {
                    $(T::$key => ($ja, $en),)*
                }
            }
        }
    };
}

texts! {
    AppTitle => ("よりみち盤遊び", "Yorimichi"),
    AppSubtitle => ("むかしの盤遊びを、ほんとうのルールで", "Traditional board games with their real rules"),
    Start => ("はじめる", "Start"),
    Settings => ("設定", "Settings"),
    About => ("このゲームについて", "About"),
    BugReport => ("バグを報告する", "Report a bug"),
    Back => ("もどる", "Back"),
    ChooseGame => ("遊ぶゲームを選ぶ", "Choose a game"),
    Continue => ("続きから", "Continue"),
    NewGame => ("はじめから", "New game"),
    HowToPlay => ("遊び方", "How to play"),
    Tutorial => ("チュートリアル", "Tutorial"),
    Learn => ("学ぶ", "Learn"),
    LearnTitle => ("を学ぶ", ": learn"),
    Practice => ("練習対局", "Practice game"),
    PracticeAbout => ("CPUと指します。駒を選ぶと動きが盤の横に出て、ヒントは何回でも使えます。", "Play the CPU: a selected piece shows its moves beside the board, and hints are unlimited."),
    LessonStart => ("始める", "Start"),
    LessonSolved => ("できた", "Done"),
    LessonSteps => ("ステップ", "steps"),
    Opponent => ("相手", "Opponent"),
    OpponentCpu => ("CPU", "CPU"),
    OpponentHuman => ("となりの人(1台を2人で)", "Friend (two on one device)"),
    OpponentRemote => ("離れた人(べつの端末で)", "Someone far away (own device)"),
    CreateRoom => ("部屋を作る", "Make a room"),
    JoinRoom => ("部屋に入る", "Join a room"),
    JoinRoomGo => ("入る", "Join"),
    RoomTitle => ("離れた人と遊ぶ", "Play from afar"),
    RoomCodeLabel => ("部屋の番号", "Room code"),
    RoomTellCode => ("この番号を相手に伝えてください。相手は「部屋に入る」で番号を入れるか、リンクを開きます", "Tell the other player this code: they enter it under Join a room, or open the link"),
    RoomLinkLabel => ("リンク: {}", "Link: {}"),
    RoomWaiting => ("相手が入るのを待っています…", "Waiting for the other player to join…"),
    RoomConnecting => ("サーバーにつないでいます…", "Connecting to the server…"),
    RoomReconnecting => ("通信が切れました。つなぎ直しています…", "Connection lost. Reconnecting…"),
    RoomNoServer => ("サーバー {} につながりません", "Cannot reach the server {}"),
    RoomEnterCode => ("部屋の番号(8文字)を入れてください", "Enter the room code (8 letters)"),
    RoomSeatWaiting => ("{}: まだです", "{}: not here yet"),
    RoomSeatHere => ("{}: 入りました", "{}: here"),
    RoomSeatAway => ("{}: 通信が切れています", "{}: connection lost"),
    RoomHostName => ("ホスト", "Host"),
    RoomGuestName => ("ゲスト", "Guest"),
    OpponentAway => ("通信が切れました。相手を待っています…", "The connection was lost. Waiting for the other player…"),
    OpponentAwayCountdown => ("通信が切れました。あと{}秒で戻らないと相手の負けです", "The connection was lost. The other player loses unless back within {} s"),
    OpponentBack => ("相手が戻りました", "The other player is back"),
    RoomMoveRefused => ("サーバーが手を受け付けませんでした: {}", "The server did not accept the move: {}"),
    RoomRefusedNoRoom => ("その番号の部屋はありません", "No room has this code"),
    RoomRefusedFull => ("その部屋はもう満員です", "That room is full"),
    RoomRefusedTries => ("試しすぎです。1分待ってください", "Too many tries: wait a minute"),
    RoomRefusedOther => ("受け付けられませんでした: {}", "Not accepted: {}"),
    RoomStampFrom => ("{}: {}", "{}: {}"),
    StampHello => ("よろしく", "Hello!"),
    StampThanks => ("ありがとう", "Thank you"),
    StampBeaten => ("まいった", "You got me"),
    StampAgain => ("もう一回", "Again!"),
    LeaveRoom => ("部屋を出る", "Leave the room"),
    GracePeriod => ("通信切れまでの待ち時間", "Time to come back after a dropped connection"),
    Grace30 => ("30秒", "30 s"),
    Grace60 => ("1分", "1 min"),
    Grace180 => ("3分", "3 min"),
    CpuStrength => ("CPUの強さ", "CPU strength"),
    Easy => ("やさしい", "Easy"),
    Normal => ("ふつう", "Normal"),
    Strong => ("つよい", "Strong"),
    FirstPlayer => ("先手(「歩」で先に動かす人)", "First player (moves 歩 first)"),
    FirstYou => ("あなた", "You"),
    FirstCpu => ("CPU", "CPU"),
    FirstOther => ("相手", "The other player"),
    FirstRandom => ("ランダム", "Random"),
    Rules => ("ルール", "Rules"),
    CustomRules => ("自分で決める", "Custom"),
    CaptureTarget => ("何枚取ったら勝ち", "Captures to win"),
    TargetDownToOne => ("残り1枚まで", "Down to 1"),
    LeadRule => ("差をつけたら勝ち(相手が次の1手で取り返せなければ)", "Win by a lead (if not answered next move)"),
    LeadNone => ("なし", "None"),
    Lead2 => ("2枚差", "2 ahead"),
    Lead3 => ("3枚差", "3 ahead"),
    Enclosure => ("囲んで取れる駒", "Enclosed pieces captured"),
    EnclosureCorner => ("隅の1枚だけ", "Corner only"),
    EnclosureEdge => ("盤の端の駒", "On the edge"),
    EnclosureAnywhere => ("盤のどこでも", "Anywhere"),
    Diagonal => ("ななめにはさんでも取れる", "Diagonal sandwiches capture"),
    MoveLimit => ("300手で引き分け", "Draw after 300 moves"),
    On => ("あり", "On"),
    Off => ("なし", "Off"),
    Undo => ("待った", "Undo"),
    UndoAllowed => ("待った", "Undo"),
    Hint => ("ヒント", "Hint"),
    Resign => ("投了", "Resign"),
    Quit => ("やめる", "Quit"),
    SoundOn => ("音:オン", "Sound: on"),
    SoundOff => ("音:オフ", "Sound: off"),
    Language => ("ことば / Language", "Language / ことば"),
    ReducedMotion => ("動きを減らす", "Reduce motion"),
    PieceDesign => ("駒のデザイン", "Piece design"),
    PieceKoma => ("将棋の駒", "Shogi pieces"),
    PieceSymbol => ("記号", "Symbols"),
    ChuPieceSetHeading => ("中将棋の駒の字", "Chu shogi pieces"),
    ChuPiecesTwoKanji => ("二文字", "Two kanji"),
    ChuPiecesOneKanji => ("一文字", "One kanji"),
    ChuPiecesMnemonic => ("動きの絵", "Moves drawn"),
    BoardThemeHeading => ("盤と駒の色", "Board and koma"),
    ThemeKaya => ("かや", "Kaya (golden)"),
    ThemeKatsura => ("かつら", "Katsura (pale)"),
    ThemeContrast => ("くっきり", "High contrast"),
    TextSizeHeading => ("文字の大きさ", "Text size"),
    TextStandard => ("ふつう", "Standard"),
    TextLarge => ("大きい", "Large"),
    TextLarger => ("もっと大きい", "Larger"),
    ChuCoordsHeading => ("中将棋の座標", "Chu shogi coordinates"),
    ChuCoordsJapanese => ("日本式 7八", "Japanese, kanji ranks"),
    ChuCoordsLishogi => ("lishogi 7h", "lishogi 7h"),
    ChuCoordsWestern => ("西洋式 f5", "Western f5"),
    Begin => ("はじめる", "Begin"),
    YourTurn => ("あなたの番です", "Your turn"),
    CpuThinking => ("CPUが考えています…", "The CPU is thinking…"),
    FirstToMove => ("先手(歩)の番", "First player (歩) to move"),
    SecondToMove => ("後手(と)の番", "Second player (と) to move"),
    Captured => ("取った駒", "Captured"),
    PlayAgain => ("もう一度", "Play again"),
    BackToList => ("ゲーム一覧へ", "Back to the list"),
    Review => ("振り返る", "Review"),
    ReviewTitle => ("振り返り", "Review"),
    ReviewFirst => ("最初", "First"),
    ReviewPrevious => ("前", "Back"),
    ReviewNext => ("次", "Next"),
    ReviewLast => ("最後", "Last"),
    ReviewBack => ("もどる", "Back"),
    ReviewStart => ("はじめの局面", "The start"),
    ReviewPly => ("{}手目", "Move {}"),
    ReviewReading => ("CPUが読んでいます", "The CPU is reading"),
    ReviewTables => ("終盤の表を作っています", "Solving the endgame tables"),
    ReviewEvaluation => ("評価", "Evaluation"),
    ReviewWinIn => ("勝ち(あと{}手)", "Won (in {} moves)"),
    ReviewLossIn => ("負け(あと{}手)", "Lost (in {} moves)"),
    ReviewWon => ("勝ち", "Won"),
    ReviewLost => ("負け", "Lost"),
    ReviewDubious => ("疑問手", "Dubious"),
    ReviewBad => ("悪手", "Mistake"),
    ReviewNextMove => ("次の手", "Next move"),
    ReviewBetter => ("よい手", "Better"),
    ReviewNoMistakes => ("疑問手・悪手なし", "No dubious moves or mistakes"),
    ReviewMistakeCount => ("疑問手{}・悪手{}", "{} dubious, {} mistakes"),
    ReviewUnreadable => ("振り返る対局が読めなかったので消しました", "The game to review could not be read and was discarded"),
    Analyse => ("検討", "Analyse"),
    AnalysisTitle => ("検討", "Analysis"),
    AnalysisHelp => ("両方の駒を自由に動かせます。CPUが読み筋を示します", "Move the pieces of both sides; the CPU shows its line"),
    AnalysisReading => ("CPUが読んでいます…", "The CPU is reading…"),
    AnalysisOver => ("この局面で勝負がついています", "The game is over in this position"),
    AnalysisLine => ("読み筋{}", "Line {}"),
    AnalysisBackToReview => ("振り返りに戻る", "Back to the review"),
    AnalysisBackToGame => ("対局に戻る", "Back to the game"),
    ReviewShare => ("共有", "Share"),
    ReviewExported => ("対局をファイルに書きました:", "The game was written to"),
    ReviewCopied => ("対局をクリップボードにコピーし、ファイルにも書きました:", "The game was copied to the clipboard and written to"),
    ReviewShownOnPage => ("対局の文とリンクをページに出しました", "The game's text and link are shown on the page"),
    ReviewExportFailed => ("対局を書き出せませんでした", "Could not export the game"),
    Draw => ("引き分け", "Draw"),
    YouWin => ("あなたの勝ち!", "You win!"),
    YouLose => ("あなたの負け", "You lose"),
    LossComfort => ("おしかった! もう一度やってみよう", "So close! Have another go?"),
    FirstWins => ("先手(歩)の勝ち", "First player (歩) wins"),
    SecondWins => ("後手(と)の勝ち", "Second player (と) wins"),
    ReasonCaptureTarget => ("決められた枚数を取りました", "Captured the pieces needed"),
    ReasonLead => ("差をつけたまま相手の番をしのぎました", "Kept the lead through the opponent's turn"),
    ReasonNoMoves => ("動かせる駒がなくなりました", "No legal move was left"),
    ReasonRepetition => ("同じ並びが4回目です(千日手)", "The same position occurred 4 times (sennichite)"),
    ReasonMoveLimit => ("合わせて300手になりました", "300 moves were played"),
    ReasonResignation => ("投了しました", "Resigned"),
    ReasonTimeUp => ("時間で打ち切り:盤の駒の点数で決まりました", "Time is up: decided by the points on the board"),
    ReasonDisconnected => ("通信切れ:時間内に戻らなかった側の負けです", "Connection lost: the player who did not come back in time loses"),
    TimeLeft => ("残り時間", "Time left"),
    MovesSoFar => ("棋譜", "Moves"),
    Repetition2 => ("同じ並びが2回目です", "The same position for the 2nd time"),
    Repetition3 => ("同じ並びが3回目です。次で引き分けです", "The same position for the 3rd time: once more is a draw"),
    LeadWarning => ("差がついています。次の1手で取り返せないと負けです", "Behind by the lead: capture back now or lose"),
    SavesOff => ("この端末では続きを保存できません(遊ぶことはできます)", "Saves are off on this device (you can still play)"),
    SaveDiscarded => ("続きのデータが読めなかったので、はじめからにしました", "The saved game could not be read, so a new game was started"),
    Version => ("ver", "ver"),
    ChangeHistory => ("更新履歴", "Change history"),
    BugReportHelp => ("下の文をコピーして報告に添えてください。本名・住所・連絡先は書かないでください。", "Copy the text below into your report. Please do not include your name, address or contact details."),
    BugReportExport => ("コピーできる形で出す", "Make it copyable"),
    BugReportExported => ("報告の文をファイルに書きました:", "The report was written to"),
    BugReportShownOnPage => ("報告の文をページに出しました。選んでコピーしてください", "The report is shown on the page: select it and copy"),
    BugReportExportFailed => ("出せませんでした", "Could not export the report"),
    ExportPosition => ("局面を書き出す", "Export position"),
    ExportKif => ("KIF(棋譜)", "KIF (game record)"),
    ExportUsi => ("USI(指し手)", "USI (moves)"),
    ExportSfen => ("SFEN(局面)", "SFEN (position)"),
    ImportPosition => ("局面を読み込む", "Import position"),
    PositionExported => ("局面をファイルに書きました:", "The position was written to"),
    PositionCopied => ("局面をクリップボードにコピーし、ファイルにも書きました:", "The position was copied to the clipboard and written to"),
    PositionPasted => ("クリップボードの局面を読み込みました", "The position on the clipboard was imported"),
    PositionShownOnPage => ("局面の文をページに出しました。選んでコピーしてください", "The position is shown on the page: select it and copy"),
    PositionExportFailed => ("局面を書き出せませんでした", "Could not export the position"),
    PositionImported => ("局面を読み込みました", "The position was imported"),
    PositionImportOnPage => ("ページの枠に局面の文を入れて「この局面で始める」を押してください", "Put the position text in the box on the page and press \"Start from it\""),
    PositionUnreadable => ("局面を読み込めませんでした", "Could not import the position"),
    Next => ("次へ", "Next"),
    Previous => ("前へ", "Back"),
    TryIt => ("やってみよう", "Try it"),
    TutorialDone => ("チュートリアルはおしまいです", "That is the end of the tutorial"),
    PiecesLeftOut => ("この図では駒を省いています", "Some pieces are left out of this diagram"),
    Moves => ("手", "moves"),
    StopJump => ("跳ぶのをやめる", "Stop jumping"),
    StopHere => ("ここで止まる", "Stop here"),
    Cancel => ("やめる", "Cancel"),
    Promote => ("成る", "Promote"),
    DontPromote => ("成らない", "Don't promote"),
    Pass => ("じっと(パス)", "Pass (jitto)"),
    ChuYourSide => ("あなたは", "You play"),
    ChuSente => ("先手(☗ 王将)", "Sente (☗, moves first)"),
    ChuGote => ("後手(☖ 玉将)", "Gote (☖)"),
    ChuSenteToMove => ("先手(☗)の番", "Sente (☗) to move"),
    ChuGoteToMove => ("後手(☖)の番", "Gote (☖) to move"),
    ChuSenteWins => ("先手(☗)の勝ち", "Sente (☗) wins"),
    ChuGoteWins => ("後手(☖)の勝ち", "Gote (☖) wins"),
    ChuMustChangeSente => ("同じ並びが3回目です。4回目(千日手)にする手を先手(☗)は指せません。先手が手を変えます", "The same position for the 3rd time: sente (☗) may not make it a 4th (sennichite) and must change its moves"),
    ChuMustChangeGote => ("同じ並びが3回目です。4回目(千日手)にする手を後手(☖)は指せません。後手が手を変えます", "The same position for the 3rd time: gote (☖) may not make it a 4th (sennichite) and must change its moves"),
    ChuDrawUnlessSenteChanges => ("同じ並びが3回目です。先手(☗)が手を変えないと、後手(☖)の手で4回目になって引き分けです(千日手)", "The same position for the 3rd time: unless sente (☗) changes its moves, gote (☖) will make it a 4th and the game is drawn (sennichite)"),
    ChuDrawUnlessGoteChanges => ("同じ並びが3回目です。後手(☖)が手を変えないと、先手(☗)の手で4回目になって引き分けです(千日手)", "The same position for the 3rd time: unless gote (☖) changes its moves, sente (☗) will make it a 4th and the game is drawn (sennichite)"),
    ChuRepetition3 => ("同じ並びが3回目です。4回目は引き分けです(千日手)", "The same position for the 3rd time: a 4th time is a draw (sennichite)"),
    ChuLishogiRepetition3 => ("同じ並びが3回目です。4回目で終わります:王手か利きを続けた側の負け、ほかは引き分け", "The same position for the 3rd time: a 4th ends the game, lost by the side that kept checking or attacking, else drawn"),
    ChuReasonFourthBySente => ("先手(☗)の手で、同じ並びが4回目になりました(千日手)", "Sente's (☗) move made the same position a 4th time (sennichite)"),
    ChuReasonFourthByGote => ("後手(☖)の手で、同じ並びが4回目になりました(千日手)", "Gote's (☖) move made the same position a 4th time (sennichite)"),
    ChuReasonOnlyRepeatSente => ("手を変えるべき先手(☗)に、4回目にする手しか残っていません(千日手)", "Sente (☗) had to change its moves but had none but the 4th repetition (sennichite)"),
    ChuReasonOnlyRepeatGote => ("手を変えるべき後手(☖)に、4回目にする手しか残っていません(千日手)", "Gote (☖) had to change its moves but had none but the 4th repetition (sennichite)"),
    Points => ("持ち点", "Points"),
    ChuRuleProfile => ("ルール", "Rules"),
    ChuProfileJcsa => ("日本中将棋連盟", "JCSA"),
    ChuProfileLishogi => ("lishogi", "lishogi"),
    ReasonRoyalsTaken => ("王を取りました(太子がいれば太子も)", "The king was captured (and the prince, if there was one)"),
    ReasonKingTaken => ("王を取りました", "The king was captured"),
    ReasonPrinceTaken => ("王に続いて太子も取りました", "The prince was captured after the king"),
    ReasonBareKing => ("駒枯れ:王のほかに数える駒が、片方は1枚、もう片方は0枚になりました", "Bare king: one piece that counts against none, beside the kings"),
    ReasonTooLittleLeft => ("どちらにも王を追いつめる駒が残っていません", "Neither side has enough left to win"),
    ShowMarks => ("印を出す(取られる行き先に×)", "Danger marks (× where a piece would be taken)"),
    GeeseToMove => ("がちょうの番", "Geese to move"),
    FoxToMove => ("きつねの番", "Fox to move"),
    GeeseWin => ("がちょうの勝ち", "The geese win"),
    FoxWins => ("きつねの勝ち", "The fox wins"),
    YourRole => ("あなたが受け持つのは", "You play"),
    RoleGeese => ("がちょう(先に動かす)", "The geese (move first)"),
    RoleFox => ("きつね", "The fox"),
    GeeseCount => ("がちょうの数", "Number of geese"),
    FoxWinsAt => ("きつねの勝ちになる数", "The fox wins when the geese are down to"),
    GeeseDownTo6 => ("6羽以下", "6 or fewer"),
    GeeseDownTo4 => ("4羽以下", "4 or fewer"),
    GeeseCannotTrap => ("囲めなくなるまで(3羽以下)", "Too few to trap (3 or fewer)"),
    DiagonalLines => ("斜めの線", "Diagonal lines"),
    GeeseBack => ("がちょうが下がれる", "Geese may move back"),
    MultiJump => ("連続跳び", "Multiple jumps"),
    ForcedCapture => ("跳べるときは必ず取る", "Forced capture"),
    FoxRepetition2 => ("同じ並びが2回目です。3回目できつねの勝ちです", "The same position for the 2nd time: a 3rd time and the fox wins"),
    GeeseOneMore => ("あと1羽取られると、きつねの勝ちです", "One more goose taken and the fox wins"),
    ReasonGeeseTooFew => ("がちょうが減って、きつねを囲めなくなりました", "Too few geese were left to trap the fox"),
    ReasonFoxTrapped => ("きつねが動けなくなりました", "The fox could not move"),
    ReasonGeeseStuck => ("がちょうが動けなくなりました", "The geese could not move"),
    ReasonFoxRepetition => ("同じ並びが3回目になりました", "The same position occurred a 3rd time"),
    ReasonFoxMoveLimit => ("300手でがちょうが囲みきれませんでした", "The geese had not trapped the fox in 300 moves"),
    RoleOya => ("親", "The oya"),
    RoleKo => ("子(16こ)", "The 16 ko"),
    OyaToMove => ("親の番", "Oya to move"),
    KoToMove => ("子の番", "Ko to move"),
    OyaWins => ("親の勝ち", "The oya wins"),
    KoWin => ("子の勝ち", "The ko win"),
    BoardShape => ("盤の形", "Board"),
    Board33 => ("正方形+雪隠(33の点)", "Square and setchin (33)"),
    Board25 => ("正方形だけ(25の点)", "Square only (25)"),
    WhoMovesFirst => ("先に動かす", "Moves first"),
    OyaWinsAt => ("親の勝ちになる子の数", "The oya wins when the ko are down to"),
    Ko5 => ("5個以下", "5 or fewer"),
    Ko4 => ("4個以下(5個以下と同じ)", "4 or fewer (plays as 5)"),
    Ko6 => ("6個以下", "6 or fewer"),
    KoToOne => ("全部取られるまで", "Until none are left"),
    OyaRepetition2 => ("同じ並びが2回目です。3回目で親の勝ちです", "The same position for the 2nd time: a 3rd time and the oya wins"),
    KoOnePairMore => ("あと1組取られると、親の勝ちです", "One more pair taken and the oya wins"),
    ReasonKoTooFew => ("子が減って、親を囲めなくなりました", "Too few ko were left to surround the oya"),
    ReasonOyaTrapped => ("親が動けなくなりました", "The oya could not move"),
    ReasonSetchinZume => ("雪隠詰め!親が雪隠で動けなくなりました", "Setchin-zume! The oya was trapped in the setchin"),
    ReasonKoStuck => ("動かせる子がなくなりました", "No ko could move"),
    ReasonOyaMoveLimit => ("300手で子が囲みきれませんでした", "The ko had not trapped the oya in 300 moves"),
    // まわり将棋. `{}` is filled by `T::fill`: a player's name, a number.
    MawariRed => ("赤", "Red"),
    MawariBlue => ("青", "Blue"),
    MawariGreen => ("緑", "Green"),
    MawariPurple => ("紫", "Purple"),
    MawariYou => ("あなた", "You"),
    MawariCpuName => ("CPU({})", "CPU({})"),
    MawariPlayerName => ("プレイヤー{}", "Player {}"),
    MawariPlayers => ("人数", "Players"),
    MawariPlayerCount => ("{}人", "{}"),
    MawariWhoThrows => ("だれが投げる?", "Who throws?"),
    MawariPerson => ("人", "Person"),
    MawariKorosu => ("殺し・復活", "Kill & revive"),
    MawariKeimaDouble => ("桂馬の倍飛び", "Knight doubles"),
    MawariYaitoRule => ("やいと", "Yaito"),
    MawariShinigamiRule => ("死神", "Shinigami"),
    MawariNakayoshiRule => ("なかよしこよし", "Nakayoshi"),
    MawariSensoRule => ("戦争", "War"),
    MawariPussunRule => ("ぷっすんきゅう", "Pussunkyu"),
    MawariOnbuRule => ("おんぶ", "Onbu"),
    MawariFuDemotion => ("歩の降格", "Pawn demotion"),
    MawariKeimaPushTwo => ("ぷっすんきゅうで桂馬は2つ", "Knight pushes two"),
    MawariBabaBack => ("ばばで戻る", "Baba goes back"),
    MawariSenkoOneUp => ("金斜は1段出世", "Slant: one rank up"),
    MawariSenkoRethrow => ("金斜は投げ直し", "Slant: throw again"),
    MawariOffBoardZero => ("盤外は0", "Off the board: 0"),
    MawariQuickOption => ("早投げ(投げる様子を省く)", "Quick throw (skip the animation)"),
    MawariWins => ("{} の勝ち!", "{} wins!"),
    MawariDragToThrow => ("{}: 盤の上でドラッグして金将を投げてください", "{}: drag across the board to throw the golds"),
    MawariIsThrowing => ("{} が投げます…", "{} is throwing…"),
    MawariAtWar => ("戦争中:", "War:"),
    MawariThrow => ("投げる", "Throw"),
    MawariQuick => ("早投げ", "Quick throw"),
    MawariLog => ("投げた記録", "Throws"),
    MawariOut => ("脱落", "out"),
    MawariDead => ("死", "dead"),
    MawariOnbuLeft => ("おんぶ {}", "onbu {}"),
    MawariThrowCount => ("{} 回投げました", "{} throws"),
    MawariTryIt => ("やってみる", "Try it"),
    MawariSide => ("横 5", "side 5"),
    MawariUpright => ("縦 10", "up 10"),
    MawariLeaning => ("斜め!", "leaning!"),
    MawariStacked => ("重なり", "stacked"),
    MawariOffBoard => ("盤の外", "off the board"),
    MawariFellOff => ("盤から落ちた!", "Off the board!"),
    MawariRethrow => ("{} 投げ直し", "{} throws again"),
    MawariSquares => ("{}マス", "{} squares"),
    MawariSenko => ("せんこ立ち!", "Senko-dachi!"),
    MawariBaba => ("ばば!", "Baba!"),
    MawariPromote => ("{} 出世! {}", "{} up to {}"),
    MawariDemote => ("{} 降格 {}", "{} down to {}"),
    MawariKill => ("殺し! {}", "Killed! {}"),
    MawariRevive => ("復活! {}", "Revived! {}"),
    MawariStepOut => ("{} 1つ外へ", "{} one step out"),
    MawariYaito => ("やいと! {}", "Yaito! {}"),
    MawariShinigami => ("死神! {}", "Shinigami! {}"),
    MawariNakayoshi => ("なかよしこよし!", "Nakayoshi-koyoshi!"),
    MawariWarStart => ("戦争!", "War!"),
    MawariWarThrow => ("{} 戦争 {}/{}", "{} war {}/{}"),
    MawariWarWon => ("{} が先に一周! 戦争に勝ち、{} の負け", "{} got round first and wins the war over {}"),
    MawariPussun => ("ぷっすんきゅう!", "Pussunkyu!"),
    MawariSenkoKing => ("せんこ立ち! いきなり王将", "Senko-dachi! Straight to king"),
    MawariBabaStill => ("ばば! 0マス", "Baba! No move"),
    MawariOnbu => ("{} おんぶ! 歩を背負ってもう一周", "{} carries a pawn one more lap"),
    MawariIsOut => ("{} 脱落", "{} is out"),
    MawariSitsOut => ("{} は休み", "{} sits out"),
    MawariOrange => ("橙", "Orange"),
    MawariBrown => ("茶", "Brown"),
    MawariFinish => ("{} {}位!", "{} takes place {}!"),
    MawariPlace => ("{}位", "No. {}"),
    MawariGoesFirst => ("{} が先に投げます!", "{} throws first!"),
    MawariDrawAgain => ("同点! もう一度: {}", "A tie! Again: {}"),
    MawariDrawTitle => ("順番決め(一番高い人が先)", "Who goes first (the highest throw)"),
    MawariDrawPrompt => ("{}: 順番決めの一投を投げてください", "{}: throw to decide who goes first"),
    MawariDrawIsThrowing => ("{} が順番決めに投げます…", "{} throws for the turn order…"),
    MawariWarMark => ("戦 {}/{}", "war {}/{}"),
    MawariOnbuGoal => ("ゴール", "goal"),
    MawariOrder => ("順番", "Turn order"),
    MawariOrderSeated => ("この順(↑で入れ替え)", "As listed (Up moves a place up)"),
    MawariOrderDraw => ("振り順(一投ずつ、高い人が先)", "Drawn by a first throw"),
    MawariMoveUp => ("↑", "Up"),
    MawariPlacesOption => ("王将のあとも2位・3位まで続ける", "Play on for 2nd and 3rd places"),
    MawariNames => ("名前と色(名前をクリックして入力)", "Names and colours (click a name to type)"),
    MawariRuleName => ("ルールの名前:", "Rules' name:"),
    MawariSaveRules => ("このルールを保存", "Save these rules"),
    MawariDefaultRuleName => ("うちのルール", "House rules"),
    MawariRulesSaved => ("「{}」を保存しました", "Saved \"{}\""),
    MawariNameCharMissing => ("「{}」はこのゲームの字にないので入れられません。ひらがな・カタカナやほかの字で入れてください", "\"{}\" is not in the game's lettering and was left out: use kana, Latin letters or other characters"),
    MawariSetupUnreadable => ("前回の設定が読めなかったので、はじめの設定にしました", "The last setup could not be read: the usual one is chosen"),
    MawariHouseUnreadable => ("保存したルールが読めませんでした(そのまま残してあります)", "The saved house rules could not be read (they are left as they were)"),
    MawariBabaGoesBack => ("ばば! 戻る", "Baba! Go back"),
    MawariPracticeResult => ("出た目: {} → {}", "Thrown: {} = {}"),
    MawariReplayThrow => ("{}/{}投目", "Throw {}/{}"),
    MawariReplayStart => ("投げる前", "Before the first throw"),
    MawariReplayLogged => ("投げ方の記録がないので、記録された目を並べています", "How this throw was thrown was not kept: the logged result is laid out"),
    MawariReplayDiffers => ("投げ直すと記録と違う目になったので、記録された目を並べています", "Thrown again it lands otherwise: the logged result is laid out"),
    MawariReplayBoardUnknown => ("ここからの盤面は記録から再現できません", "The board cannot be rebuilt from the log from here on"),
    MawariRankChart => ("段の移り変わり", "Ranks over the throws"),
}

impl T {
    pub fn get(self, lang: Lang) -> &'static str {
        let (ja, en) = self.texts();
        lang.pick(ja, en)
    }

    /// The key's text with each `{}` filled by the next of `args` (the two
    /// languages put a name or a number in different places). A `{}` left
    /// without an argument stays as it is; spare arguments are dropped.
    pub fn fill(self, lang: Lang, args: &[&dyn std::fmt::Display]) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let mut args = args.iter();
        let mut parts = self.get(lang).split("{}");
        out.push_str(parts.next().unwrap_or_default());
        for part in parts {
            match args.next() {
                Some(a) => {
                    let _ = write!(out, "{a}");
                }
                None => out.push_str("{}"),
            }
            out.push_str(part);
        }
        out
    }
}

/// Marks a text entity whose content is the key's text in the current
/// language; it is rewritten when the language changes.
#[derive(Component, Clone, Copy, Debug)]
pub struct Localized(pub T);

pub fn plugin(app: &mut App) {
    app.add_systems(Update, relocalize);
}

fn relocalize(
    settings: Res<crate::shell::settings::Settings>,
    mut texts: Query<(&Localized, &mut Text)>,
) {
    if !settings.is_changed() {
        return;
    }
    for (key, mut text) in &mut texts {
        let s = key.0.get(settings.lang);
        if text.0 != s {
            text.0 = s.to_string();
        }
    }
}
