//! A reader of include/numgpu.h as cbindgen writes it: its macros, enums, typedefs and
//! function declarations, for the generators that derive other files from the header (the
//! Fortran module, the hostile-input table of the C tests). Whatever it cannot read panics
//! with its name, so a header change it does not know fails `make header` instead of being
//! skipped.

use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq)]
pub enum Token {
    Ident(String),
    Str(String),
    Punct(char),
}

/// A C type as declared: its base (`const` dropped, recorded apart) and its pointer levels,
/// innermost first, each true when that pointer itself is `const` (`float *const *A`: [true,
/// false]).
pub struct CType {
    pub base: String,
    pub base_const: bool,
    pub ptrs: Vec<bool>,
}

pub struct Param {
    pub ty: CType,
    pub name: String,
}

pub struct Func {
    pub name: String,
    pub ret: CType,
    pub params: Vec<Param>,
}

/// What a type name of the header stands for.
pub enum TypeDef {
    Alias(CType),
    Opaque,
    Struct(Vec<Param>),
    FnPtr(Func),
}

pub enum Value {
    Int(i128),
    Str(String),
}

#[derive(Default)]
pub struct Header {
    /// `#define NAME tokens`, in order.
    pub macros: Vec<(String, Vec<Token>)>,
    /// Each enum with its values, in order.
    pub enums: Vec<(String, Vec<(String, i128)>)>,
    /// typedefs in order, and by name.
    pub typedef_order: Vec<String>,
    pub typedefs: BTreeMap<String, TypeDef>,
    pub functions: Vec<Func>,
}

fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let s: String = chars.by_ref().take_while(|&c| c != '"').collect();
            out.push(Token::Str(s));
        } else if c.is_ascii_alphanumeric() || c == '_' {
            // Identifiers and numbers.
            let mut s = String::new();
            while let Some(&c) = chars.peek().filter(|c| c.is_ascii_alphanumeric() || **c == '_') {
                s.push(c);
                chars.next();
            }
            out.push(Token::Ident(s));
        } else {
            out.push(Token::Punct(c));
            chars.next();
        }
    }
    out
}

/// The header without comments, and without what only a C++ compiler sees.
fn c_text(header: &str) -> String {
    let mut plain = String::new();
    let mut rest = header;
    while let Some(i) = rest.find(['/', '"']) {
        let (head, tail) = rest.split_at(i);
        plain.push_str(head);
        if let Some(t) = tail.strip_prefix("/*") {
            rest = &t[t.find("*/").expect("unterminated comment in the header") + 2..];
        } else if let Some(t) = tail.strip_prefix("//") {
            rest = &t[t.find('\n').unwrap_or(t.len())..];
        } else if let Some(t) = tail.strip_prefix('"') {
            let end = 1 + t.find('"').expect("unterminated string in the header");
            plain.push_str(&tail[..=end]);
            rest = &tail[end + 1..];
        } else {
            plain.push('/');
            rest = &tail[1..];
        }
    }
    plain.push_str(rest);
    // A stack of conditionals: only `#ifdef __cplusplus` hides its lines.
    let mut hidden: Vec<bool> = Vec::new();
    let mut out = String::new();
    for line in plain.lines() {
        let t = line.trim();
        if let Some(cond) = t.strip_prefix("#ifdef") {
            hidden.push(cond.trim() == "__cplusplus");
        } else if t.starts_with("#ifndef") || t.starts_with("#if !defined(") {
            // The default of an overridable type (`#if !defined(numgpu_complex_float)`): what a
            // program that defines nothing sees.
            hidden.push(false);
        } else if t.starts_with("#endif") {
            hidden.pop().expect("#endif without #if in the header");
        } else if t.starts_with("#if") || t.starts_with("#el") {
            panic!("header line {t:?}: the Fortran generator knows #ifdef, #ifndef, #if !defined(...) and #endif only");
        } else if !hidden.contains(&true) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn ident(t: &Token) -> Option<&str> {
    match t {
        Token::Ident(s) => Some(s),
        _ => None,
    }
}

/// A declaration such as `const float *const *A` (`named`: the last word is the name).
fn declaration(toks: &[Token], named: bool) -> (CType, String) {
    let (name, toks) = if named {
        let (last, rest) = toks.split_last().unwrap_or_else(|| panic!("empty declaration in the header"));
        (ident(last).unwrap_or_else(|| panic!("declaration without a name: {toks:?}")).to_string(), rest)
    } else {
        (String::new(), toks)
    };
    let mut ty = CType { base: String::new(), base_const: false, ptrs: Vec::new() };
    for t in toks {
        match (t, ty.ptrs.last_mut()) {
            (Token::Punct('*'), _) => ty.ptrs.push(false),
            (Token::Ident(w), Some(is_const)) if w == "const" => *is_const = true,
            (Token::Ident(w), None) if w == "const" => ty.base_const = true,
            (Token::Ident(w), None) if w != "struct" && w != "enum" => {
                if !ty.base.is_empty() {
                    ty.base.push(' ');
                }
                ty.base.push_str(w);
            }
            _ => panic!("the Fortran generator cannot read the C declaration {toks:?}"),
        }
    }
    (ty, name)
}

/// Splits at commas (or `sep`) outside parentheses and braces.
fn split(toks: &[Token], sep: char) -> Vec<&[Token]> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, t) in toks.iter().enumerate() {
        match t {
            Token::Punct('(' | '{') => depth += 1,
            Token::Punct(')' | '}') => depth -= 1,
            Token::Punct(c) if *c == sep && depth == 0 => {
                out.push(&toks[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&toks[start..]);
    out.retain(|s| !s.is_empty());
    out
}

/// `( params )` as parameters; `(void)` is none.
fn params(toks: &[Token]) -> Vec<Param> {
    if toks == [Token::Ident("void".into())] {
        return Vec::new();
    }
    split(toks, ',')
        .into_iter()
        .map(|p| {
            let (ty, name) = declaration(p, true);
            Param { ty, name }
        })
        .collect()
}

/// `ret name(params)` or, with `pointer`, `ret (*name)(params)`.
fn function(toks: &[Token], pointer: bool) -> Func {
    let open = toks.iter().position(|t| *t == Token::Punct('(')).expect("a function has parameters");
    let last_close = toks.iter().rposition(|t| *t == Token::Punct(')')).expect("balanced parentheses");
    let (ret_toks, name, params_open) = if pointer {
        let close = open + toks[open..].iter().position(|t| *t == Token::Punct(')')).expect("balanced parentheses");
        let inner = &toks[open + 1..close];
        assert!(inner.len() == 2 && inner[0] == Token::Punct('*'), "function-pointer typedef {toks:?}");
        (&toks[..open], ident(&inner[1]).expect("typedef name").to_string(), close + 1)
    } else {
        let name = ident(&toks[open - 1]).expect("function name").to_string();
        (&toks[..open - 1], name, open)
    };
    assert!(toks[params_open] == Token::Punct('('), "function {name}: parameters expected");
    let (ret, _) = declaration(ret_toks, false);
    Func { name, ret, params: params(&toks[params_open + 1..last_close]) }
}

pub fn parse_header(header: &str) -> Header {
    let mut h = Header::default();
    let code = c_text(header);
    let mut c = String::new();
    for line in code.lines() {
        match line.trim().strip_prefix('#') {
            Some(directive) => {
                if let Some(def) = directive.trim_start().strip_prefix("define") {
                    let toks = tokens(def);
                    let name = ident(&toks[0]).expect("#define name").to_string();
                    if toks.len() > 1 {
                        h.macros.push((name, toks[1..].to_vec()));
                    }
                }
            }
            None => {
                c.push_str(line);
                c.push('\n');
            }
        }
    }
    let toks = tokens(&c);
    for stmt in split(&toks, ';') {
        let words: Vec<&str> = stmt.iter().filter_map(ident).collect();
        if words[0] == "enum" {
            let open = stmt.iter().position(|t| *t == Token::Punct('{')).expect("enum body");
            let mut next = 0i128;
            let mut values = Vec::new();
            for v in split(&stmt[open + 1..stmt.len() - 1], ',') {
                let name = ident(&v[0]).expect("enumerator").to_string();
                if v.len() > 1 {
                    assert!(v[1] == Token::Punct('='), "enumerator {name}");
                    next = match evaluate(&v[2..]) {
                        Value::Int(i) => i,
                        _ => panic!("enumerator {name} is not an integer"),
                    };
                }
                values.push((name, next));
                next += 1;
            }
            h.enums.push((words[1].to_string(), values));
        } else if words[0] == "typedef" {
            let body = &stmt[1..];
            let (name, def) = if words[1] == "struct" && body.len() == 3 {
                (words[2].to_string(), TypeDef::Opaque)
            } else if words[1] == "struct" {
                let close = body.iter().rposition(|t| *t == Token::Punct('}')).expect("struct body");
                let fields = split(&body[2..close], ';')
                    .into_iter()
                    .map(|f| {
                        let (ty, name) = declaration(f, true);
                        Param { ty, name }
                    })
                    .collect();
                (ident(&body[close + 1]).expect("struct name").to_string(), TypeDef::Struct(fields))
            } else if body.contains(&Token::Punct('(')) {
                let f = function(body, true);
                (f.name.clone(), TypeDef::FnPtr(f))
            } else {
                let (ty, name) = declaration(body, true);
                (name, TypeDef::Alias(ty))
            };
            h.typedef_order.push(name.clone());
            h.typedefs.insert(name, def);
        } else {
            h.functions.push(function(stmt, false));
        }
    }
    h
}

/// The value of a `#define` or an enumerator: a string or an integer literal, the only values
/// cbindgen writes into numgpu.h (its public values are enums; the version macros are literals).
pub fn evaluate(toks: &[Token]) -> Value {
    let integer = |w: &str| w.parse::<i128>().unwrap_or_else(|_| panic!("the Fortran generator reads integer literals only, not {w}"));
    match toks {
        [Token::Str(s)] => Value::Str(s.clone()),
        [Token::Ident(w)] => Value::Int(integer(w)),
        [Token::Punct('-'), Token::Ident(w)] => Value::Int(-integer(w)),
        _ => panic!("the Fortran generator reads string and integer literals only, not {toks:?}"),
    }
}
