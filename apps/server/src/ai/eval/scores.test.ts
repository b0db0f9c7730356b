import { describe, expect, it } from 'vitest';
import { bleuFromStatistics, corpusBleu, tokenize13a } from './bleu.js';
import { corpusChrf, sentenceChrf } from './chrf.js';

/*
 * The scorers against the values sacreBLEU 2.x's own tests assert (github.com/mjpost/sacrebleu,
 * test/test_bleu.py and test/test_chrf.py), with the same settings.
 */

const near = (actual: number, expected: number, epsilon: number) =>
  expect(Math.abs(actual - expected)).toBeLessThan(epsilon);

describe('BLEU as sacreBLEU', () => {
  const refs = [
    ['The dog bit the man.', 'It was not unexpected.', 'The man bit him first.'],
    ['The dog had bit the man.', 'No one was surprised.', 'The man had bitten the dog.'],
  ];
  const hyps = ['The dog bit the man.', "It wasn't surprising.", 'The man had just bitten him.'];

  it('scores the README corpus with two reference streams (13a, exp smoothing)', () => {
    near(corpusBleu(hyps, refs), 48.530827, 1e-6);
    near(corpusBleu(hyps, refs, { smoothMethod: 'none' }), 48.530827, 1e-6);
    near(corpusBleu(hyps, refs, { tokenize: 'none' }), 49.1919566, 1e-6);
    expect(corpusBleu(['', '', ''], refs)).toBe(0);
  });

  it('scores raw BLEU (no tokenisation, floor smoothing, effective order)', () => {
    const raw = (hyp: string[], ref: string[], floor = 0.01) =>
      corpusBleu(hyp, [ref], {
        tokenize: 'none',
        smoothMethod: 'floor',
        smoothValue: floor,
        effectiveOrder: true,
      }) / 100;
    near(raw(['this is a test', 'another test'], ['ref1', 'ref2']), 0.003799178428257963, 1e-8);
    near(raw(['this is a test'], ['this is a test']), 1, 1e-8);
    near(raw(['this is a fest'], ['this is a test']), 0.223606797749979, 1e-8);
    near(raw(['test'], ['a test']), 0.3678794411714425, 1e-8);
    near(raw(['a little test'], ['a test']), 0.03218297948685433, 1e-8);
  });

  it('scores from statistics as compute_bleu', () => {
    const stats = { correct: [9, 7, 5, 3], total: [10, 8, 6, 4], hypothesisLength: 11, referenceLength: 11 };
    near(bleuFromStatistics(stats) / 100, 0.8375922397, 1e-8);
    const none = { correct: [0, 0, 0, 0], total: [0, 0, 0, 0], hypothesisLength: 0, referenceLength: 0 };
    expect(bleuFromStatistics(none)).toBe(0);
  });

  it('tokenises as mteval-v13a', () => {
    expect(tokenize13a("It wasn't surprising.")).toBe("It wasn't surprising .");
    expect(tokenize13a('"Hello" (world) & <you>!')).toBe('" Hello " ( world ) & < you > !');
    expect(tokenize13a('Costs 3.5 dollars, 1,000 times - 2-3.')).toBe(
      'Costs 3.5 dollars , 1,000 times - 2 - 3 .',
    );
  });
});

describe('chrF as sacreBLEU', () => {
  // char_order=6, word_order=0, beta=3, eps_smoothing=True
  const eps = { beta: 3, epsSmoothing: true };
  const cases: Array<[string[], string[], number]> = [
    [['abcdefg'], ['hijklmnop'], 0],
    [['a'], ['b'], 0],
    [[''], ['reference'], 0],
    [['aa'], ['ab'], 8.3333],
    [['a', 'b'], ['a', 'c'], 8.3333],
    [['a'], ['a'], 16.6667],
    [['a b c'], ['a b c'], 50],
    [['a b c'], ['abc'], 50],
    [
      [
        ' risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists .',
      ],
      [
        'risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists .',
      ],
      63.36173,
    ],
    [
      [' Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. '],
      ['Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich.'],
      64.1302698,
    ],
    [
      ['Niemand hat die Absicht, eine Mauer zu errichten'],
      ['Niemand hat die Absicht, eine Mauer zu errichten'],
      100,
    ],
  ];

  it.each(cases)('with epsilon smoothing: %j against %j is %d', (hyp, ref, expected) => {
    near(corpusChrf(hyp, ref, eps), expected, 1e-4);
  });

  it('over the effective order (sacreBLEU before 2.0, and its corpus default)', () => {
    const effective = { beta: 3 };
    near(corpusChrf(['a'], ['a'], effective), 100, 1e-4);
    near(corpusChrf([''], ['reference'], effective), 0, 1e-4);
    near(corpusChrf(['a b c'], ['abc'], effective), 100, 1e-4);
    near(corpusChrf(['a', 'b'], ['a', 'c'], effective), 50, 1e-4);
    near(corpusChrf(['aa'], ['ab'], effective), 25, 1e-4);
  });

  it('keeping whitespace', () => {
    const keep = { beta: 3, whitespace: true };
    near(
      corpusChrf(
        ['Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich.'],
        ['Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich.'],
        keep,
      ),
      67.3481606,
      1e-4,
    );
  });

  it('per sentence, beta 2 (chrF2)', () => {
    const sentence = (hyp: string, ref: string) => sentenceChrf(hyp, ref, { epsSmoothing: true });
    near(
      sentence(
        'Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.',
        'Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře.',
      ),
      39.14078509,
      1e-4,
    );
    near(
      sentence(
        'Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.',
        'A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři.',
      ),
      31.22557079,
      1e-4,
    );
    near(
      sentence(
        'Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.',
        'Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, připomněli.',
      ),
      57.15704367,
      1e-4,
    );
  });
});
