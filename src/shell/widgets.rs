//! Small UI building blocks: each returns a bundle, so screens read as a
//! tree of widgets. Clicks are handled by observers attached where a widget
//! is spawned; the click sound is one observer here, for every button.

use bevy::prelude::*;

use super::i18n::{Lang, Localized, T};

/// The two bundled fonts: IPAex Gothic for the UI, IPAex Mincho for pieces.
#[derive(Resource, Clone, Default)]
pub struct Fonts {
    pub ui: Handle<Font>,
    pub koma: Handle<Font>,
}

pub mod palette {
    use bevy::prelude::Color;
    /// Washi paper.
    pub(crate) const PAPER: Color = Color::srgb(0.953, 0.918, 0.843);
    pub const INK: Color = Color::srgb(0.17, 0.13, 0.09);
    pub(crate) const INK_SOFT: Color = Color::srgb(0.38, 0.32, 0.26);
    pub const VERMILION: Color = Color::srgb(0.78, 0.27, 0.18);
    pub(crate) const BUTTON: Color = Color::srgb(0.30, 0.22, 0.15);
    pub(crate) const BUTTON_HOVER: Color = Color::srgb(0.42, 0.31, 0.21);
    pub(crate) const BUTTON_PRESSED: Color = Color::srgb(0.20, 0.14, 0.09);
    pub(crate) const BUTTON_ON: Color = Color::srgb(0.78, 0.27, 0.18);
    pub(crate) const BUTTON_ON_HOVER: Color = Color::srgb(0.86, 0.36, 0.26);
    /// A chosen option's face: light, so that it reads without its colour.
    pub(crate) const CHOSEN: Color = Color::srgb(0.99, 0.95, 0.86);
    pub(crate) const CHOSEN_HOVER: Color = Color::srgb(0.96, 0.89, 0.76);
    pub(crate) const CARD: Color = Color::srgb(0.99, 0.97, 0.92);
    pub const BOARD: Color = Color::srgb(0.88, 0.72, 0.45);
    pub(crate) const BOARD_LINE: Color = Color::srgb(0.25, 0.17, 0.08);
    pub const GOLD: Color = Color::srgb(0.95, 0.74, 0.13);
    pub(crate) const RED_RING: Color = Color::srgb(0.86, 0.10, 0.10);
    pub(crate) const HINT_BLUE: Color = Color::srgb(0.15, 0.40, 0.90);
    pub(crate) const LAST_MOVE: Color = Color::srgba(0.95, 0.55, 0.20, 0.35);
    pub(crate) const SELECTED: Color = Color::srgba(0.20, 0.60, 0.25, 0.45);
    pub(crate) const DEST_DOT: Color = Color::srgba(0.15, 0.40, 0.90, 0.75);
}

/// The sizes of the UI's text, in pixels of the design area: one scale
/// for every screen. The text-size setting and the phone's floor apply on
/// top ([`TypeSize`]).
pub mod type_scale {
    /// Log lines, notes under a control, the chart's scale.
    pub const CAPTION: f32 = 13.0;
    /// Names and states in lists.
    pub const SMALL: f32 = 15.0;
    /// Running text.
    pub const BODY: f32 = 16.0;
    /// A line that leads a panel or a group.
    pub const LEAD: f32 = 18.0;
    /// Button captions.
    pub const BUTTON: f32 = 20.0;
    /// A panel's title.
    pub const SUBTITLE: f32 = 22.0;
    /// A screen's heading.
    pub const HEADING: f32 = 30.0;
    /// A screen's title.
    pub const TITLE: f32 = 36.0;
    /// A result's headline.
    pub const DISPLAY: f32 = 48.0;
    /// The title screen's name of the game.
    pub const HERO: f32 = 64.0;
}

/// A UI text's size on the [`type_scale`]. What is drawn follows the
/// text-size setting, and is never under [`READABLE_PX`] pixels of the
/// window, however small the window scales the design area (a phone).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct TypeSize(pub f32);

/// The smallest text drawn, in the window's logical pixels (CSS pixels in
/// a browser): a small window's fine print.
pub const READABLE_PX: f32 = 12.0;

/// The smallest text drawn on a phone, in CSS pixels: what reads at arm's
/// length (the phone guidelines' floor for secondary text).
pub const PHONE_READABLE_PX: f32 = 14.0;

/// The largest text drawn on a phone, in CSS pixels: a title in display
/// type would not fit its width.
pub const PHONE_LARGEST_PX: f32 = 40.0;

/// A button's least width and height on a phone, in CSS pixels: what a
/// thumb hits (Apple's 44 pt; the margins keep 8 px between two).
pub const PHONE_TARGET_PX: f32 = 44.0;

impl TypeSize {
    /// The size drawn in the design area's pixels, with the text-size
    /// factor `factor`, when the UI is scaled by `ui_scale`.
    pub fn drawn(self, factor: f32, ui_scale: f32) -> f32 {
        self.drawn_with_floor(factor, ui_scale, READABLE_PX)
    }

    /// As [`TypeSize::drawn`], never under `floor` logical pixels.
    pub fn drawn_with_floor(self, factor: f32, ui_scale: f32, floor: f32) -> f32 {
        (self.0 * factor).max(floor / ui_scale.max(0.05))
    }
}

/// Follows the text-size setting and the window's scale.
fn size_texts(
    settings: Res<super::settings::Settings>,
    ui_scale: Res<UiScale>,
    phone: Res<super::Phone>,
    mut texts: Query<(Ref<TypeSize>, &mut TextFont)>,
) {
    let all = settings.is_changed() || ui_scale.is_changed() || phone.is_changed();
    let factor = settings.text_size.factor();
    let floor = if phone.0 {
        PHONE_READABLE_PX
    } else {
        READABLE_PX
    };
    for (size, mut font) in &mut texts {
        if !all && !size.is_changed() {
            continue;
        }
        let mut px = size.drawn_with_floor(factor, ui_scale.0, floor);
        if phone.0 {
            px = px.min(PHONE_LARGEST_PX / ui_scale.0.max(0.05));
        }
        let want = FontSize::Px(px);
        if font.font_size != want {
            font.font_size = want;
        }
    }
}

pub fn text(fonts: &Fonts, s: impl Into<String>, size: f32, color: Color) -> impl Bundle {
    (
        Text::new(s),
        TypeSize(size),
        TextFont {
            font: fonts.ui.clone().into(),
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(color),
    )
}

/// A text that follows the language setting.
pub(crate) fn label(fonts: &Fonts, lang: Lang, key: T, size: f32, color: Color) -> impl Bundle {
    (text(fonts, key.get(lang), size, color), Localized(key))
}

/// What a button is, which decides how it is drawn. A chosen option is
/// told from the others by shape and lightness as well as colour (a filled
/// mark, a light face with a dark caption), so that it reads in greyscale
/// and to a player who does not see red.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ButtonLook {
    /// An action.
    Action,
    /// The action a screen leads to (vermilion, with a light inner ring).
    Primary,
    /// One option of a group: a round mark, filled when chosen.
    Choice { chosen: bool },
    /// A setting that is on or off by itself: a square mark, filled when on.
    Toggle { on: bool },
}

impl ButtonLook {
    /// An action, emphasised as the screen's main one when `primary`.
    pub fn action(primary: bool) -> ButtonLook {
        if primary {
            ButtonLook::Primary
        } else {
            ButtonLook::Action
        }
    }

    /// A chosen option or a toggle that is on.
    pub fn is_chosen(self) -> bool {
        matches!(
            self,
            ButtonLook::Choice { chosen: true } | ButtonLook::Toggle { on: true }
        )
    }

    fn mark_radius(self) -> Option<f32> {
        match self {
            ButtonLook::Choice { .. } => Some(7.0),
            ButtonLook::Toggle { .. } => Some(3.0),
            ButtonLook::Action | ButtonLook::Primary => None,
        }
    }

    /// The face, the border and the caption's colour at rest.
    fn colours(self) -> (Color, Color, Color) {
        if self.is_chosen() {
            (palette::CHOSEN, palette::BUTTON_ON, palette::INK)
        } else if self == ButtonLook::Primary {
            (palette::BUTTON_ON, palette::PAPER, Color::WHITE)
        } else {
            (palette::BUTTON, palette::BUTTON, Color::WHITE)
        }
    }

    /// The face under the pointer.
    fn hover(self) -> Color {
        if self.is_chosen() {
            palette::CHOSEN_HOVER
        } else if self == ButtonLook::Primary {
            palette::BUTTON_ON_HOVER
        } else {
            palette::BUTTON_HOVER
        }
    }

    /// The mark's fill and its ring.
    fn mark_colours(self) -> (Color, Color) {
        if self.is_chosen() {
            (palette::BUTTON_ON, palette::BUTTON_ON)
        } else {
            (Color::NONE, Color::WHITE)
        }
    }
}

/// A patch that tells something apart by its colour and its mark (a
/// player's colour): the number of its colour.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColourKey(pub u8);

/// A button's caption (coloured with its state).
#[derive(Component, Clone, Copy, Debug)]
pub struct ButtonCaption;

/// The round or square mark of a choice or a toggle.
#[derive(Component, Clone, Copy, Debug)]
pub struct ChoiceMark;

/// The width of every button's border: the same whatever its state, so
/// that choosing an option never moves its neighbours.
const BORDER_PX: f32 = 3.0;

/// The clickable frame shared by every button.
fn button_frame(look: ButtonLook) -> impl Bundle {
    let (face, border, _) = look.colours();
    (
        Button,
        look,
        // Reached by Tab; outlined in gold while focused, outside the border
        // that shows a choice.
        bevy::input_focus::tab_navigation::TabIndex(0),
        Outline::new(px(3), px(2), Color::NONE),
        Node {
            // A choice's mark takes some of the room its padding had.
            padding: UiRect::axes(
                px(if look.mark_radius().is_some() {
                    10.0
                } else {
                    16.0
                } - BORDER_PX),
                px(7.0 - BORDER_PX),
            ),
            margin: UiRect::all(px(4)),
            border: UiRect::all(px(BORDER_PX)),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            column_gap: px(6),
            border_radius: BorderRadius::all(px(8)),
            ..default()
        },
        BackgroundColor(face),
        BorderColor::all(border),
    )
}

/// The mark of a choice or a toggle (none on an action).
fn choice_mark(look: ButtonLook) -> impl Bundle {
    let (fill, ring) = look.mark_colours();
    let radius = look.mark_radius();
    (
        ChoiceMark,
        Node {
            width: px(14),
            height: px(14),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(radius.unwrap_or(0.0))),
            display: if radius.is_some() {
                Display::Flex
            } else {
                Display::None
            },
            ..default()
        },
        BackgroundColor(fill),
        BorderColor::all(ring),
    )
}

fn caption(fonts: &Fonts, s: impl Into<String>, look: ButtonLook) -> impl Bundle {
    (
        text(fonts, s, type_scale::BUTTON, look.colours().2),
        // A caption is one line: measured at one font size and drawn at
        // another (the phone's floor), a short one would otherwise wrap its
        // last character and make its button a line too tall.
        TextLayout::no_wrap(),
        ButtonCaption,
    )
}

/// A button with a text on it, drawn as `look`. Attach `.observe(...)` for
/// the click.
pub fn button_with(fonts: &Fonts, s: impl Into<String>, look: ButtonLook) -> impl Bundle {
    (
        button_frame(look),
        children![choice_mark(look), caption(fonts, s, look)],
    )
}

/// An action button with a text on it, the screen's main one when
/// `primary`. Attach `.observe(...)` for the click.
pub fn button(fonts: &Fonts, s: impl Into<String>, primary: bool) -> impl Bundle {
    button_with(fonts, s, ButtonLook::action(primary))
}

/// A button whose caption follows the language setting, drawn as `look`.
pub(crate) fn key_button_with(fonts: &Fonts, lang: Lang, key: T, look: ButtonLook) -> impl Bundle {
    (
        button_frame(look),
        children![
            choice_mark(look),
            (caption(fonts, key.get(lang), look), Localized(key))
        ],
    )
}

/// An action button whose caption follows the language setting, the
/// screen's main one when `primary`.
pub(crate) fn key_button(fonts: &Fonts, lang: Lang, key: T, primary: bool) -> impl Bundle {
    key_button_with(fonts, lang, key, ButtonLook::action(primary))
}

/// A screen's full-window column (`screen_root`).
#[derive(Component, Clone, Copy, Debug)]
#[require(ScrollPosition)]
pub struct ScreenRoot;

/// A full-window column that centres its children; on a phone it starts
/// at the top and scrolls (centred, what overflows would be cut off above
/// as well as below). It has no background: the window is cleared to the
/// paper, and on a software renderer a window-sized UI node costs as much
/// as a third of a frame.
pub(crate) fn screen_root() -> impl Bundle {
    (
        ScreenRoot,
        Node {
            width: percent(100),
            height: percent(100),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            row_gap: px(6),
            ..default()
        },
    )
}

/// Lays a screen's root out for a phone or a larger window, and lets it
/// scroll by the wheel or a drag. In a phone's scrolling root nothing
/// shrinks: what does not fit scrolls instead of being squeezed.
fn fit_screen_roots(
    phone: Res<super::Phone>,
    mut roots: Query<(Entity, Ref<ScreenRoot>, &mut Node, Option<Ref<Children>>)>,
    mut nodes: Query<&mut Node, Without<ScreenRoot>>,
    mut commands: Commands,
) {
    for (entity, root, mut node, children) in &mut roots {
        if root.is_added() {
            commands
                .entity(entity)
                .observe(scroll_root_by_wheel)
                .observe(scroll_root_by_drag);
        }
        let new_children = children.as_ref().is_some_and(Ref::is_changed);
        if !root.is_added() && !phone.is_changed() && !new_children {
            continue;
        }
        if phone.0 {
            node.justify_content = JustifyContent::FlexStart;
            node.overflow = Overflow::scroll_y();
            node.padding = UiRect::axes(px(8), px(12));
        } else {
            node.justify_content = JustifyContent::Center;
            node.overflow = Overflow::visible();
            node.padding = UiRect::ZERO;
        }
        for child in children.iter().flat_map(|c| c.iter()) {
            if let Ok(mut child) = nodes.get_mut(child) {
                if phone.0 {
                    child.flex_shrink = 0.0;
                } else if phone.is_changed() && !root.is_added() {
                    child.flex_shrink = 1.0;
                }
            }
        }
    }
}

fn scroll_roots(
    roots: &mut Query<(&mut ScrollPosition, &ComputedNode), With<ScreenRoot>>,
    dy: f32,
) {
    for (mut position, node) in roots {
        scroll_node(&mut position, node, dy);
    }
}

fn scroll_root_by_wheel(
    scroll: On<Pointer<Scroll>>,
    mut roots: Query<(&mut ScrollPosition, &ComputedNode), With<ScreenRoot>>,
) {
    let lines = match scroll.unit {
        bevy::input::mouse::MouseScrollUnit::Line => 18.0,
        bevy::input::mouse::MouseScrollUnit::Pixel => 1.0,
    };
    scroll_roots(&mut roots, -scroll.y * lines);
}

fn scroll_root_by_drag(
    drag: On<Pointer<Drag>>,
    mut roots: Query<(&mut ScrollPosition, &ComputedNode), With<ScreenRoot>>,
) {
    scroll_roots(&mut roots, -drag.delta.y);
}

/// A column that takes the room its parent leaves and scrolls what does
/// not fit (by the wheel or a drag): a phone's panel over its bar.
pub(crate) fn scroll_column() -> impl Bundle {
    (
        ScrollColumn,
        Node {
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            flex_grow: 1.0,
            flex_shrink: 1.0,
            min_height: px(0),
            width: percent(100),
            row_gap: px(6),
            overflow: Overflow::scroll_y(),
            ..default()
        },
    )
}

/// A column that scrolls what does not fit (`scroll_column`).
#[derive(Component, Clone, Copy, Debug)]
#[require(ScrollPosition)]
pub struct ScrollColumn;

fn scroll_columns(columns: Query<Entity, Added<ScrollColumn>>, mut commands: Commands) {
    for entity in &columns {
        commands
            .entity(entity)
            .observe(scroll_column_by_wheel)
            .observe(scroll_column_by_drag);
    }
}

fn scroll_column_by_wheel(
    scroll: On<Pointer<Scroll>>,
    mut columns: Query<(&mut ScrollPosition, &ComputedNode), With<ScrollColumn>>,
) {
    let lines = match scroll.unit {
        bevy::input::mouse::MouseScrollUnit::Line => 18.0,
        bevy::input::mouse::MouseScrollUnit::Pixel => 1.0,
    };
    if let Ok((mut position, node)) = columns.get_mut(scroll.entity) {
        scroll_node(&mut position, node, -scroll.y * lines);
    }
}

fn scroll_column_by_drag(
    drag: On<Pointer<Drag>>,
    mut columns: Query<(&mut ScrollPosition, &ComputedNode), With<ScrollColumn>>,
) {
    if let Ok((mut position, node)) = columns.get_mut(drag.entity) {
        scroll_node(&mut position, node, -drag.delta.y);
    }
}

/// Scrolls a node by `dy` logical pixels, within what it has to show.
fn scroll_node(position: &mut ScrollPosition, node: &ComputedNode, dy: f32) {
    let range = ((node.content_size().y - node.size().y) * node.inverse_scale_factor()).max(0.0);
    position.0.y = (position.0.y.min(range) + dy).clamp(0.0, range);
}

/// On a phone every button is at least a thumb's size.
fn fit_buttons(phone: Res<super::Phone>, mut buttons: Query<(Ref<ButtonLook>, &mut Node)>) {
    for (look, mut node) in &mut buttons {
        // A larger window keeps each button's own least size.
        let least = if phone.0 && (look.is_added() || phone.is_changed()) {
            px(PHONE_TARGET_PX)
        } else if !phone.0 && phone.is_changed() && !look.is_added() {
            Val::Auto
        } else {
            continue;
        };
        node.min_width = least;
        node.min_height = least;
    }
}

pub fn row() -> impl Bundle {
    row_node()
}

/// The node of a [`row`], to build on.
pub fn row_node() -> Node {
    Node {
        flex_direction: FlexDirection::Row,
        align_items: AlignItems::Center,
        flex_wrap: FlexWrap::Wrap,
        justify_content: JustifyContent::Center,
        ..default()
    }
}

pub fn card() -> (Node, BackgroundColor, BorderColor) {
    (
        Node {
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            padding: UiRect::all(px(16)),
            margin: UiRect::all(px(8)),
            row_gap: px(6),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(12)),
            ..default()
        },
        BackgroundColor(palette::CARD),
        BorderColor::all(palette::INK_SOFT),
    )
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, (color_buttons, follow_entry))
        .add_systems(
            PostUpdate,
            (size_texts, fit_screen_roots, fit_buttons, scroll_columns)
                .before(bevy::ui::UiSystems::Prepare),
        )
        .add_observer(click_sound);
}

/// Every button clicks when pressed, by pointer, touch or key (a focused
/// button's Enter is a click too). The click bubbles from the caption to
/// the button: only the button's own step sounds.
fn click_sound(
    click: On<Pointer<Click>>,
    buttons: Query<(), With<ButtonLook>>,
    mut sfx: MessageWriter<super::audio::Sfx>,
) {
    if buttons.contains(click.entity) {
        sfx.write(super::audio::Sfx::Button);
    }
}

/// A scrolling list that keeps its entry `current` in view, with `above`
/// entries over it: the list scrolls by the entries' laid-out heights, so
/// an entry of two lines is never cut at the top.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[require(ScrollPosition)]
pub struct FollowEntry {
    pub current: usize,
    pub above: usize,
}

/// An entry of a [`FollowEntry`] list, by its number.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListEntry(pub usize);

fn follow_entry(
    mut lists: Query<(&FollowEntry, &Children, &mut ScrollPosition)>,
    entries: Query<(&ListEntry, &ComputedNode)>,
) {
    for (follow, children, mut scroll) in &mut lists {
        let first_shown = follow.current.saturating_sub(follow.above);
        let offset: f32 = children
            .iter()
            .filter_map(|child| entries.get(child).ok())
            .filter(|(entry, _)| entry.0 < first_shown)
            .map(|(_, node)| node.size().y * node.inverse_scale_factor())
            .sum();
        if (scroll.0.y - offset).abs() > 0.5 {
            scroll.0.y = offset;
        }
    }
}

/// A button lights up under the pointer and is pushed in while pressed;
/// its border, mark and caption follow its look.
fn color_buttons(
    mut buttons: Query<
        (
            &Interaction,
            &ButtonLook,
            &Children,
            &mut BackgroundColor,
            &mut BorderColor,
            &mut UiTransform,
        ),
        Or<(Changed<Interaction>, Changed<ButtonLook>)>,
    >,
    mut marks: Query<
        (&mut BackgroundColor, &mut BorderColor),
        (With<ChoiceMark>, Without<ButtonLook>),
    >,
    mut captions: Query<&mut TextColor, With<ButtonCaption>>,
) {
    for (interaction, look, children, mut bg, mut border, mut transform) in &mut buttons {
        let (face, edge, ink) = look.colours();
        bg.0 = match *interaction {
            Interaction::Pressed if !look.is_chosen() => palette::BUTTON_PRESSED,
            Interaction::Pressed | Interaction::Hovered => look.hover(),
            Interaction::None => face,
        };
        *border = BorderColor::all(edge);
        transform.scale = Vec2::splat(if *interaction == Interaction::Pressed {
            0.95
        } else {
            1.0
        });
        let (fill, ring) = look.mark_colours();
        for child in children.iter() {
            if let Ok((mut mark_fill, mut mark_ring)) = marks.get_mut(child) {
                mark_fill.0 = fill;
                *mark_ring = BorderColor::all(ring);
            }
            if let Ok(mut colour) = captions.get_mut(child) {
                colour.0 = ink;
            }
        }
    }
}

/// The panel over the board that offers a choice of moves (成る / 成らない,
/// じっと), on the play screen and in the tutorials alike.
pub(crate) fn choice_panel() -> impl Bundle {
    (
        Node {
            position_type: PositionType::Absolute,
            left: percent(18),
            top: percent(40),
            padding: UiRect::all(px(14)),
            column_gap: px(10),
            flex_direction: FlexDirection::Row,
            border_radius: BorderRadius::all(px(10)),
            ..default()
        },
        BackgroundColor(palette::PAPER.with_alpha(0.96)),
        GlobalZIndex(20),
    )
}
