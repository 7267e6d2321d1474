//! The rules in force as a small value: ko rule, suicide, scoring, komi, win condition, and
//! the named rulesets (Chinese, Japanese, Tromp-Taylor, AGA, New Zealand, capture Go) with
//! their GTP, KGS and KataGo spellings. Knows nothing of boards.

use std::fmt;
use std::str::FromStr;

/// Which repetitions are forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoRule {
    /// Only the immediate recapture of a single stone.
    Simple,
    /// No move may recreate an earlier board position.
    Positional,
    /// No move may recreate an earlier board position with the same player to move.
    Situational,
}

/// How the score is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Stones plus empty points surrounded by one colour only.
    Area,
    /// Surrounded empty points plus prisoners plus dead stones; seki points count for nobody.
    Territory,
}

/// Compensation white receives in handicap games under area scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandicapBonus {
    /// None.
    Zero,
    /// One point per handicap stone.
    PerStone,
    /// One point per handicap stone after the first.
    PerStoneAfterFirst,
}

/// How the game is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinCondition {
    /// By the score after two passes.
    Score,
    /// By being first to capture this many stones (capture Go); the score decides a game that
    /// ends by passes before either player gets there.
    Captures(u32),
}

/// A complete ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Repetition rule.
    pub ko: KoRule,
    /// Counting.
    pub scoring: Scoring,
    /// Whether a move may remove its own chain of two or more stones.
    pub suicide_allowed: bool,
    /// Komi of this ruleset in half points (7.5 = 15), used until GTP `komi` overrides it.
    pub default_komi_half_points: i32,
    /// Win condition.
    pub win: WinCondition,
    /// Handicap compensation for white under area scoring.
    pub handicap_bonus: HandicapBonus,
    /// Whether passing with dead stones still on the board is safe (false: Tromp-Taylor,
    /// where every stone on the board counts as alive).
    pub friendly_pass_ok: bool,
    /// Canonical name.
    pub name: RulesName,
}

/// The named rulesets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RulesName {
    Chinese,
    Japanese,
    TrompTaylor,
    Aga,
    NewZealand,
    Capture,
    Custom,
}

impl Rules {
    /// Chinese: area, positional superko, no suicide, komi 7.5.
    pub fn chinese() -> Rules {
        Rules {
            ko: KoRule::Positional,
            scoring: Scoring::Area,
            suicide_allowed: false,
            default_komi_half_points: 15,
            win: WinCondition::Score,
            handicap_bonus: HandicapBonus::PerStone,
            friendly_pass_ok: true,
            name: RulesName::Chinese,
        }
    }

    /// Japanese: territory + prisoners, simple ko, no suicide, komi 6.5.
    pub fn japanese() -> Rules {
        Rules {
            ko: KoRule::Simple,
            scoring: Scoring::Territory,
            suicide_allowed: false,
            default_komi_half_points: 13,
            win: WinCondition::Score,
            handicap_bonus: HandicapBonus::Zero,
            friendly_pass_ok: true,
            name: RulesName::Japanese,
        }
    }

    /// Tromp-Taylor: area, positional superko, suicide allowed, komi 7.5; dead stones must be
    /// captured before the game ends.
    pub fn tromp_taylor() -> Rules {
        Rules {
            ko: KoRule::Positional,
            scoring: Scoring::Area,
            suicide_allowed: true,
            default_komi_half_points: 15,
            win: WinCondition::Score,
            handicap_bonus: HandicapBonus::Zero,
            friendly_pass_ok: false,
            name: RulesName::TrompTaylor,
        }
    }

    /// AGA: area, situational superko, no suicide, komi 7.5, handicap bonus N-1.
    pub fn aga() -> Rules {
        Rules {
            ko: KoRule::Situational,
            scoring: Scoring::Area,
            suicide_allowed: false,
            default_komi_half_points: 15,
            win: WinCondition::Score,
            handicap_bonus: HandicapBonus::PerStoneAfterFirst,
            friendly_pass_ok: true,
            name: RulesName::Aga,
        }
    }

    /// New Zealand: area, situational superko, suicide allowed, komi 7.5.
    pub fn new_zealand() -> Rules {
        Rules {
            ko: KoRule::Situational,
            scoring: Scoring::Area,
            suicide_allowed: true,
            default_komi_half_points: 15,
            win: WinCondition::Score,
            handicap_bonus: HandicapBonus::Zero,
            friendly_pass_ok: true,
            name: RulesName::NewZealand,
        }
    }

    /// Capture Go: the first player to capture `target` stones wins; Chinese rules otherwise,
    /// komi 0.
    pub fn capture(target: u32) -> Rules {
        Rules {
            win: WinCondition::Captures(target.max(1)),
            default_komi_half_points: 0,
            name: RulesName::Capture,
            ..Rules::chinese()
        }
    }

    /// The ruleset's default komi as a number of points.
    pub fn default_komi(&self) -> f64 {
        self.default_komi_half_points as f64 / 2.0
    }

    /// The capture target under capture Go.
    pub fn capture_target(&self) -> Option<u32> {
        match self.win {
            WinCondition::Captures(target) => Some(target),
            WinCondition::Score => None,
        }
    }

    /// Parses a name from `kgs-rules`: `chinese`, `japanese`, `aga`, `new_zealand`.
    pub fn from_kgs_name(text: &str) -> Option<Rules> {
        match text.to_ascii_lowercase().as_str() {
            "chinese" => Some(Rules::chinese()),
            "japanese" => Some(Rules::japanese()),
            "aga" => Some(Rules::aga()),
            "new_zealand" => Some(Rules::new_zealand()),
            _ => None,
        }
    }

    /// KataGo's `kata-get-rules` JSON for these rules.
    pub fn to_kata_json(&self) -> String {
        let ko = match self.ko {
            KoRule::Simple => "SIMPLE",
            KoRule::Positional => "POSITIONAL",
            KoRule::Situational => "SITUATIONAL",
        };
        let scoring = match self.scoring {
            Scoring::Area => "AREA",
            Scoring::Territory => "TERRITORY",
        };
        let tax = match self.scoring {
            Scoring::Area => "NONE",
            Scoring::Territory => "SEKI",
        };
        let bonus = match self.handicap_bonus {
            HandicapBonus::Zero => "0",
            HandicapBonus::PerStone => "N",
            HandicapBonus::PerStoneAfterFirst => "N-1",
        };
        format!(
            "{{\"friendlyPassOk\":{},\"hasButton\":false,\"ko\":\"{}\",\"scoring\":\"{}\",\"suicide\":{},\"tax\":\"{}\",\"whiteHandicapBonus\":\"{}\"}}",
            self.friendly_pass_ok, ko, scoring, self.suicide_allowed, tax, bonus
        )
    }

    /// Parses KataGo's rules JSON (the keys `ko`, `scoring`, `suicide`, `tax`,
    /// `whiteHandicapBonus`, `friendlyPassOk`), starting from Chinese for missing keys.
    ///
    /// # Errors
    /// A message naming the key or value that is not understood.
    pub fn from_kata_json(text: &str) -> Result<Rules, String> {
        let body = text
            .trim()
            .strip_prefix('{')
            .and_then(|rest| rest.strip_suffix('}'))
            .ok_or_else(|| "rules JSON must be an object".to_string())?;
        let mut rules = Rules {
            name: RulesName::Custom,
            ..Rules::chinese()
        };
        for pair in body.split(',').filter(|pair| !pair.trim().is_empty()) {
            let (key, value) = pair
                .split_once(':')
                .ok_or_else(|| format!("bad JSON member {pair}"))?;
            let key = key.trim().trim_matches('"').to_ascii_lowercase();
            let value = value.trim().trim_matches('"').to_ascii_uppercase();
            match key.as_str() {
                "ko" => {
                    rules.ko = match value.as_str() {
                        "SIMPLE" => KoRule::Simple,
                        "POSITIONAL" => KoRule::Positional,
                        "SITUATIONAL" => KoRule::Situational,
                        _ => return Err(format!("unknown ko rule {value}")),
                    }
                }
                "scoring" => {
                    rules.scoring = match value.as_str() {
                        "AREA" => Scoring::Area,
                        "TERRITORY" => Scoring::Territory,
                        _ => return Err(format!("unknown scoring {value}")),
                    }
                }
                "suicide" | "multistonesuicidelegal" => rules.suicide_allowed = value == "TRUE",
                "friendlypassok" => rules.friendly_pass_ok = value == "TRUE",
                "whitehandicapbonus" => {
                    rules.handicap_bonus = match value.as_str() {
                        "0" => HandicapBonus::Zero,
                        "N" => HandicapBonus::PerStone,
                        "N-1" => HandicapBonus::PerStoneAfterFirst,
                        _ => return Err(format!("unknown handicap bonus {value}")),
                    }
                }
                "tax" | "hasbutton" => {}
                _ => return Err(format!("unknown rules key {key}")),
            }
        }
        Ok(rules)
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::chinese()
    }
}

/// The error of parsing a ruleset name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRules(pub String);

impl fmt::Display for UnknownRules {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "unknown rules '{}' (chinese, japanese, korean, tromp-taylor, aga, bga, new-zealand, capture:N)",
            self.0
        )
    }
}

impl std::error::Error for UnknownRules {}

impl FromStr for Rules {
    type Err = UnknownRules;

    /// Reads `--rules` and `kata-set-rules` shorthands: `chinese` (also `chinese-ogs`,
    /// `chinese-kgs`), `japanese`, `korean`, `tromp-taylor`, `aga`, `bga`, `french`,
    /// `new-zealand` (`nz`, `new_zealand`), `capture:N`. Case, `-` and `_` do not matter.
    fn from_str(text: &str) -> Result<Rules, UnknownRules> {
        let normal: String = text
            .trim()
            .to_ascii_lowercase()
            .chars()
            .filter(|c| *c != '-' && *c != '_')
            .collect();
        if let Some(target) = normal.strip_prefix("capture") {
            let target = target.trim_start_matches([':', '=']);
            if target.is_empty() {
                return Ok(Rules::capture(1));
            }
            return match target.parse::<u32>() {
                Ok(count) if count > 0 => Ok(Rules::capture(count)),
                _ => Err(UnknownRules(text.to_string())),
            };
        }
        match normal.as_str() {
            "chinese" | "chineseogs" | "chinesekgs" | "cn" => Ok(Rules::chinese()),
            "japanese" | "korean" | "jp" => Ok(Rules::japanese()),
            "tromptaylor" | "tt" => Ok(Rules::tromp_taylor()),
            "aga" | "bga" | "french" => Ok(Rules::aga()),
            "newzealand" | "nz" => Ok(Rules::new_zealand()),
            _ => Err(UnknownRules(text.to_string())),
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name {
            RulesName::Chinese => formatter.write_str("chinese"),
            RulesName::Japanese => formatter.write_str("japanese"),
            RulesName::TrompTaylor => formatter.write_str("tromp-taylor"),
            RulesName::Aga => formatter.write_str("aga"),
            RulesName::NewZealand => formatter.write_str("new-zealand"),
            RulesName::Capture => {
                write!(formatter, "capture:{}", self.capture_target().unwrap_or(1))
            }
            RulesName::Custom => formatter.write_str(&self.to_kata_json()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_rulesets_parse_and_print_back() {
        for name in [
            "chinese",
            "japanese",
            "tromp-taylor",
            "aga",
            "new-zealand",
            "capture:5",
        ] {
            let rules: Rules = name.parse().unwrap();
            assert_eq!(rules.to_string(), name);
        }
        assert_eq!("NZ".parse::<Rules>().unwrap(), Rules::new_zealand());
        assert_eq!(
            "new_zealand".parse::<Rules>().unwrap(),
            Rules::new_zealand()
        );
        assert_eq!("Korean".parse::<Rules>().unwrap(), Rules::japanese());
        assert!("go".parse::<Rules>().is_err());
        assert!("capture:0".parse::<Rules>().is_err());
    }

    #[test]
    fn rulesets_have_their_properties() {
        assert_eq!(Rules::chinese().ko, KoRule::Positional);
        assert_eq!(Rules::chinese().default_komi(), 7.5);
        assert_eq!(Rules::japanese().scoring, Scoring::Territory);
        assert_eq!(Rules::japanese().default_komi(), 6.5);
        assert!(Rules::tromp_taylor().suicide_allowed);
        assert_eq!(Rules::aga().ko, KoRule::Situational);
        assert!(Rules::new_zealand().suicide_allowed);
        assert_eq!(Rules::capture(3).capture_target(), Some(3));
    }

    #[test]
    fn kata_json_round_trips() {
        for rules in [
            Rules::chinese(),
            Rules::japanese(),
            Rules::tromp_taylor(),
            Rules::aga(),
            Rules::new_zealand(),
        ] {
            let parsed = Rules::from_kata_json(&rules.to_kata_json()).unwrap();
            assert_eq!(parsed.ko, rules.ko);
            assert_eq!(parsed.scoring, rules.scoring);
            assert_eq!(parsed.suicide_allowed, rules.suicide_allowed);
            assert_eq!(parsed.handicap_bonus, rules.handicap_bonus);
        }
        assert!(Rules::from_kata_json("{\"ko\":\"WEIRD\"}").is_err());
    }
}
