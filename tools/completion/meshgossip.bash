# bash completion for meshgossip (installed as
# share/bash-completion/completions/meshgossip): commands, each command's
# options, algorithm names from `meshgossip list`, topology and model forms.
_meshgossip() {
  local cur prev cmd
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD-1]}
  local commands="list run compare tune bound table verify draw plot report"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi
  cmd=${COMP_WORDS[1]}
  case $prev in
    --algo)
      local algos
      algos=$(meshgossip list 2>/dev/null | awk '/^[a-z0-9]/ {print $1}')
      COMPREPLY=($(compgen -W "auto $algos" -- "$cur"))
      return ;;
    --problem) COMPREPLY=($(compgen -W "gossip exchange" -- "$cur")); return ;;
    --timing) COMPREPLY=($(compgen -W "sync async ranks" -- "$cur")); return ;;
    --engine) COMPREPLY=($(compgen -W "model simgrid" -- "$cur")); return ;;
    --topo) COMPREPLY=($(compgen -W "ring: line: torus: mesh: meshbus:" -- "$cur")); compopt -o nospace; return ;;
    --model)
      COMPREPLY=($(compgen -W "switching=wormhole switching=circuit switching=saf switching=bus port=all port=one
                               contention=strict contention=shared contention=fair ts= td= tl= ell= o= or= bwf=
                               share=even share=hops routes=schedule routes=dor routes=simgrid detach= ack=
                               timing=sync timing=async timing=ranks @" -- "$cur"))
      compopt -o nospace; return ;;
    --export|--export-ti|--output|-o|--plot) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --format) COMPREPLY=($(compgen -W "json msccl goal" -- "$cur")); return ;;
    --r|--bytes|--sizes|--mem-limit|--round) return ;;
  esac
  local opts
  case $cmd in
    run) opts="--algo --problem --topo --model --r --bytes --json --export --format --mem-limit --timing --engine --export-ti" ;;
    compare) opts="--problem --topo --model --r --bytes --sizes --plot --json --all --mem-limit --timing --engine" ;;
    tune) opts="--algo --topo --model --r --bytes --json --mem-limit" ;;
    bound) opts="--problem --topo --model --r --bytes --json" ;;
    table) opts="--json --mem-limit $(meshgossip table --help 2>/dev/null | awk '/^  [a-z]/ {print $1}')" ;;
    verify) opts="--json --mem-limit --format --topo --model --r --bytes --timing"; COMPREPLY=($(compgen -f -- "$cur")) ;;
    draw) opts="--algo --topo --model --r --bytes --round --all --heatmap --output --mem-limit" ;;
    report) opts="--problem --topo --model --r --bytes --sizes --output --mem-limit" ;;
    plot) opts="--output"; COMPREPLY=($(compgen -f -- "$cur")) ;;
  esac
  COMPREPLY+=($(compgen -W "$opts --help" -- "$cur"))
}
complete -F _meshgossip meshgossip
