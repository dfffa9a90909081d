//! A room's join link as a QR code, drawn into an image: a phone's camera
//! opens the room from the screen of the device that made it.

use bevy::asset::RenderAssetUsages;
use bevy::image::{Image, ImageSampler};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use qrcodegen::{QrCode, QrCodeEcc};

/// The light border a reader needs around the code, in modules.
const QUIET_MODULES: i32 = 4;

/// How large a module is drawn on the screen, in logical pixels: a phone
/// held at arm's length reads it from a laptop or a tablet.
pub const MODULE_PX: f32 = 6.0;

/// The code of `text` with its quiet border, one texel a module, drawn
/// without smoothing (the squares stay sharp at any size); none where the
/// text is too long for a QR code.
pub fn qr_image(text: &str) -> Option<Image> {
    let code = QrCode::encode_text(text, QrCodeEcc::Medium).ok()?;
    let side = code.size() + 2 * QUIET_MODULES;
    let mut data = Vec::with_capacity((side * side * 4) as usize);
    for y in 0..side {
        for x in 0..side {
            let dark = code.get_module(x - QUIET_MODULES, y - QUIET_MODULES);
            let v = if dark { 0 } else { 255 };
            data.extend_from_slice(&[v, v, v, 255]);
        }
    }
    let mut image = Image::new(
        Extent3d {
            width: side as u32,
            height: side as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    image.sampler = ImageSampler::nearest();
    Some(image)
}

/// The code drawn last, kept while its text stays the same (a room screen
/// is drawn again on every change of the room).
#[derive(Resource, Default)]
pub struct QrCache(Option<(String, Handle<Image>, f32)>);

impl QrCache {
    /// The image of `text` and its side on the screen, made once.
    pub fn image(
        &mut self,
        text: &str,
        images: &mut Assets<Image>,
    ) -> Option<(Handle<Image>, f32)> {
        if let Some((kept, handle, side)) = &self.0
            && kept == text
        {
            return Some((handle.clone(), *side));
        }
        let image = qr_image(text)?;
        let side = image.width() as f32 * MODULE_PX;
        let handle = images.add(image);
        self.0 = Some((text.to_string(), handle.clone(), side));
        Some((handle, side))
    }
}
